import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Suspense } from 'react';
import { PageHeader } from '../../../components/page-header';
import { SkeletonList } from '../../../components/skeleton';
import { webhookPlanQueryOptions } from '../../../features/webhooks/api/get-webhook-limits';
import { webhooksQueryOptions } from '../../../features/webhooks/api/get-webhooks';
import { QueryErrorBoundary } from '../../../components/query-error-boundary';
import { WebhooksOverview } from '../../../features/webhooks/components/webhooks-overview';
import { useIntl } from '../../../lib/intl';

export const Route = createFileRoute('/_authed/webhooks/')({
  // Prefetch, not ensure: a failure is shown in place, under the page's header.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(webhooksQueryOptions()),
      context.queryClient.prefetchQuery(webhookPlanQueryOptions()),
    ]),
  component: WebhooksPage,
});

function WebhooksPage() {
  const intl = useIntl();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.webhooks.title', defaultMessage: 'Webhooks' })}
        description={intl.formatMessage({
          id: 'pages.webhooks.description',
          defaultMessage: 'Get a signed HTTP request the moment a transfer is ready, downloaded or expires, or keep events for your system to read.',
        })}
      />
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <QueryErrorBoundary onRetry={reset}>
            <Suspense fallback={<SkeletonList label={intl.formatMessage({ id: 'pages.webhooks.loading', defaultMessage: 'Loading endpoints' })} rows={2} />}>
              <WebhooksOverview />
            </Suspense>
          </QueryErrorBoundary>
        )}
      </QueryErrorResetBoundary>
    </>
  );
}
