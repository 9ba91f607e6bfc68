import { OpenInItsWorkspace } from '../../../features/members/components/open-in-its-workspace';
import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { defineMessages } from 'react-intl';
import { QueryErrorBoundary } from '../../../components/query-error-boundary';
import { resourceErrorComponent } from '../../../components/route-states';
import { SkeletonList } from '../../../components/skeleton';
import { useSession } from '../../../features/auth/api/get-session';
import { prefetchCollectionTitles } from '../../../features/requests/api/destination';
import { uploadRequestQueryOptions, useUploadRequest } from '../../../features/requests/api/get-request';
import { submissionsQueryOptions } from '../../../features/requests/api/get-submissions';
import { RequestHeader } from '../../../features/requests/components/request-header';
import { RequestLink } from '../../../features/requests/components/request-link';
import { RequestSettings } from '../../../features/requests/components/request-settings';
import { SubmissionList } from '../../../features/requests/components/submission-list';
import { useIntl } from '../../../lib/intl';

/** Not in this workspace: perhaps in another of the person's, which the page offers to open. */
const missing = defineMessages({
  title: { id: 'pages.request.notFound.title', defaultMessage: 'Upload request not found' },
  description: { id: 'pages.request.notFound.description', defaultMessage: 'There is no such upload request in this workspace.' },
  back: { id: 'pages.request.notFound.back', defaultMessage: 'All upload requests' },
});

const notFound = resourceErrorComponent({
  title: missing.title,
  description: missing.description,
  back: { to: '/requests', label: missing.back },
  elsewhere: <OpenInItsWorkspace param="requestId" />,
});

export const Route = createFileRoute('/_authed/requests/$requestId')({
  loader: async ({ context: { queryClient }, params: { requestId } }) => {
    // The submissions show their own loading and errors; start them early.
    void queryClient.prefetchQuery(submissionsQueryOptions(requestId));
    prefetchCollectionTitles(queryClient);
    await queryClient.ensureQueryData(uploadRequestQueryOptions(requestId));
  },
  component: RequestPage,
  errorComponent: notFound,
});

function RequestPage() {
  const intl = useIntl();
  const { requestId } = Route.useParams();
  const { data: request } = useUploadRequest(requestId);
  const paid = useSession().workspace.plan === 'paid';
  const [announcement, setAnnouncement] = useState('');
  return (
    <>
      <RequestHeader request={request} paid={paid} announce={setAnnouncement} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {/* On a phone: the link, the submissions, then the settings. From lg up the link and the settings are a column beside the submissions. */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:grid-rows-[auto_1fr]">
        <div className="min-w-0 lg:col-start-2 lg:row-start-1">
          <RequestLink request={request} />
        </div>
        <div className="min-w-0 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <QueryErrorResetBoundary>
            {({ reset }) => (
              <QueryErrorBoundary onRetry={reset}>
                <Suspense fallback={<SkeletonList label={intl.formatMessage({ id: 'pages.request.loadingSubmissions', defaultMessage: 'Loading submissions' })} rows={2} />}>
                  <SubmissionList requestId={request.id} />
                </Suspense>
              </QueryErrorBoundary>
            )}
          </QueryErrorResetBoundary>
        </div>
        <div className="min-w-0 lg:col-start-2 lg:row-start-2">
          <RequestSettings request={request} />
        </div>
      </div>
    </>
  );
}
