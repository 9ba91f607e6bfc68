import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page-header';
import { RouteErrorPage } from '../../../components/route-states';
import { prefetchCollectionTitles } from '../../../features/requests/api/destination';
import { uploadRequestsQueryOptions } from '../../../features/requests/api/get-requests';
import { NewRequestButton } from '../../../features/requests/components/new-request-button';
import { RequestsList } from '../../../features/requests/components/requests-list';

export const Route = createFileRoute('/_authed/requests/')({
  // Readable on the free plan too: only creating and changing need the paid plan.
  loader: ({ context }) => {
    prefetchCollectionTitles(context.queryClient);
    return context.queryClient.ensureQueryData(uploadRequestsQueryOptions());
  },
  errorComponent: RouteErrorPage,
  component: RequestsPage,
});

function RequestsPage() {
  return (
    <>
      <PageHeader
        title="Upload requests"
        description="Links that let anyone send you files, straight into one of your collections, without an account."
        actions={<NewRequestButton />}
      />
      <RequestsList />
    </>
  );
}
