import { OpenInItsWorkspace } from '../../../features/members/components/open-in-its-workspace';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { defineMessages } from 'react-intl';
import { resourceErrorComponent } from '../../../components/route-states';
import { webhookQueryOptions, useWebhook } from '../../../features/webhooks/api/get-webhook';
import { webhookDeliveriesQueryOptions } from '../../../features/webhooks/api/get-webhook-deliveries';
import { webhookEventsQueryOptions } from '../../../features/webhooks/api/get-webhook-events';
import { useWebhookPlan, webhookPlanQueryOptions } from '../../../features/webhooks/api/get-webhook-limits';
import { DeliveryList } from '../../../features/webhooks/components/delivery-list';
import { NewWebhookSecret } from '../../../features/webhooks/components/new-webhook-secret';
import { PullEvents } from '../../../features/webhooks/components/pull-events';
import { WebhookControls } from '../../../features/webhooks/components/webhook-controls';
import { WebhookFacts } from '../../../features/webhooks/components/webhook-facts';
import { WebhookHeader } from '../../../features/webhooks/components/webhook-header';
import { WebhookSettingsForm } from '../../../features/webhooks/components/webhook-settings-form';
import { useIntl } from '../../../lib/intl';

/** Not in this workspace: perhaps in another of the person's, which the page offers to open. */
const missing = defineMessages({
  title: { id: 'pages.webhook.notFound.title', defaultMessage: 'Webhook endpoint not found' },
  description: { id: 'pages.webhook.notFound.description', defaultMessage: 'There is no such endpoint in this workspace. It may have been deleted.' },
  back: { id: 'pages.webhook.notFound.back', defaultMessage: 'All endpoints' },
});

const notFound = resourceErrorComponent({
  title: missing.title,
  description: missing.description,
  back: { to: '/webhooks', label: missing.back },
  elsewhere: <OpenInItsWorkspace param="webhookId" />,
});

export const Route = createFileRoute('/_authed/webhooks/$webhookId')({
  loader: async ({ context: { queryClient }, params: { webhookId } }) => {
    const [webhook] = await Promise.all([
      queryClient.ensureQueryData(webhookQueryOptions(webhookId)),
      queryClient.ensureQueryData(webhookPlanQueryOptions()),
    ]);
    // The activity lists show their own loading and errors; start them early.
    if (webhook.mode === 'push') void queryClient.prefetchQuery(webhookDeliveriesQueryOptions(webhookId));
    else void queryClient.prefetchInfiniteQuery(webhookEventsQueryOptions(webhookId));
  },
  component: WebhookPage,
  errorComponent: notFound,
});

function WebhookPage() {
  const intl = useIntl();
  const { webhookId } = Route.useParams();
  const navigate = Route.useNavigate();
  const { data: webhook } = useWebhook(webhookId);
  const { data: plan } = useWebhookPlan();
  const [rotatedSecret, setRotatedSecret] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  return (
    <>
      <WebhookHeader webhook={webhook} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {rotatedSecret ? (
        <div className="mb-8">
          <NewWebhookSecret title={intl.formatMessage({ id: 'pages.webhook.newSecret', defaultMessage: 'New signing secret' })} secret={rotatedSecret} onDone={() => setRotatedSecret(null)} />
        </div>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0">{webhook.mode === 'push' ? <DeliveryList webhookId={webhook.id} /> : <PullEvents webhookId={webhook.id} />}</div>
        <div className="min-w-0 space-y-6">
          <WebhookFacts webhook={webhook} />
          <WebhookSettingsForm key={webhook.id} webhook={webhook} plan={plan.plan} />
          <WebhookControls
            webhook={webhook}
            announce={setAnnouncement}
            onRotated={setRotatedSecret}
            onDeleted={() => void navigate({ to: '/webhooks' })}
          />
        </div>
      </div>
    </>
  );
}
