import { Link } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, buttonClass } from '../../../components/button';
import { Card } from '../../../components/card';
import { useIntl } from '../../../lib/intl';
import { useCreateWebhook } from '../api/create-webhook';
import { useWebhookPlan } from '../api/get-webhook-limits';
import { useWebhooks } from '../api/get-webhooks';
import type { WebhookWithSecret } from '../api/types';
import { endpointName } from '../utils/webhook-display';
import { CreateWebhookSection } from './create-webhook-section';
import { NewWebhookSecret } from './new-webhook-secret';
import { PullFeedGuide } from './pull-feed-guide';
import { WebhookList } from './webhook-list';

/** The endpoints and the create card; after creating, the new secret until the user is done with it. */
export function WebhooksOverview() {
  const { data: webhooks } = useWebhooks();
  const { data: plan } = useWebhookPlan();
  const create = useCreateWebhook();

  if (create.data) {
    return (
      <div className="space-y-8">
        <CreatedEndpoint created={create.data} onDone={() => create.reset()} />
        <WebhookList webhooks={webhooks} />
      </div>
    );
  }

  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_28rem]">
      <div className="lg:order-2">
        <CreateWebhookSection
          plan={plan}
          endpointCount={webhooks.length}
          pending={create.isPending}
          error={create.error}
          onCreate={(input, { onError }) => create.mutate(input, { onError })}
        />
      </div>
      <div className="min-w-0 lg:order-1">
        <WebhookList webhooks={webhooks} />
      </div>
    </div>
  );
}

function CreatedEndpoint({ created, onDone }: { created: WebhookWithSecret; onDone: () => void }) {
  const intl = useIntl();
  const { webhook } = created;
  const openEndpoint = (
    <Link to="/webhooks/$webhookId" params={{ webhookId: webhook.id }} className={buttonClass('secondary')}>
      {webhook.mode === 'push'
        ? intl.formatMessage({ id: 'webhooks.created.openAndTest', defaultMessage: 'Open endpoint and send a test event' })
        : intl.formatMessage({ id: 'webhooks.created.open', defaultMessage: 'Open endpoint' })}
    </Link>
  );
  if (webhook.mode === 'push') {
    const title = intl.formatMessage(
      { id: 'webhooks.created.pushHeading', defaultMessage: 'Endpoint {name} created' },
      { name: <bdi key="name">{endpointName(webhook, intl)}</bdi> },
    );
    return <NewWebhookSecret title={title} secret={created.secret} onDone={onDone} actions={openEndpoint} />;
  }
  return <CreatedPullEndpoint webhookId={webhook.id} onDone={onDone} actions={openEndpoint} />;
}

function CreatedPullEndpoint({ webhookId, onDone, actions }: { webhookId: string; onDone: () => void; actions: ReactNode }) {
  const intl = useIntl();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Card aria-labelledby="created-pull-heading" className="space-y-4">
      <h2 id="created-pull-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {intl.formatMessage({ id: 'webhooks.created.pullHeading', defaultMessage: 'Pull endpoint created' })}
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage({
          id: 'webhooks.created.pullIntro',
          defaultMessage: 'Events you subscribed to are kept for this endpoint from now on. Read them with an API key:',
        })}
      </p>
      <PullFeedGuide webhookId={webhookId} nextCursor={null} />
      <div className="flex flex-wrap gap-3">
        <Button onClick={onDone}>{intl.formatMessage({ id: 'webhooks.created.done', defaultMessage: 'Done' })}</Button>
        {actions}
      </div>
    </Card>
  );
}
