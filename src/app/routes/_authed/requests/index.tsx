import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page-header';
import { RouteErrorPage } from '../../../components/route-states';
import { prefetchCollectionTitles } from '../../../features/requests/api/destination';
import { uploadRequestsQueryOptions } from '../../../features/requests/api/get-requests';
import { NewRequestButton } from '../../../features/requests/components/new-request-button';
import { RequestsList } from '../../../features/requests/components/requests-list';
import { useIntl } from '../../../lib/intl';

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
  const intl = useIntl();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.requests.title', defaultMessage: 'Upload requests' })}
        description={intl.formatMessage({
          id: 'pages.requests.description',
          defaultMessage: 'Links that let anyone send you files, straight into one of your collections, without an account.',
        })}
        actions={<NewRequestButton />}
      />
      <RequestsList />
    </>
  );
}
