import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { useIntl } from '../../../lib/intl';
import type { WebhookEndpoint } from '../api/types';
import { endpointName } from '../utils/webhook-display';
import { RelativeTime } from '../../../components/relative-time';
import { WebhookStatusBadges } from './webhook-status-badges';

export function WebhookList({ webhooks }: { webhooks: WebhookEndpoint[] }) {
  const intl = useIntl();
  return (
    <section aria-labelledby="webhook-list-heading">
      <h2 id="webhook-list-heading" className="mb-4 text-lg font-semibold">
        {intl.formatMessage({ id: 'webhooks.list.heading', defaultMessage: 'Your endpoints' })}
      </h2>
      {webhooks.length === 0 ? (
        <EmptyState title={intl.formatMessage({ id: 'webhooks.list.emptyTitle', defaultMessage: 'No webhook endpoints yet' })}>
          <p>
            {intl.formatMessage({
              id: 'webhooks.list.emptyPush',
              defaultMessage:
                'A webhook tells your system the moment something happens in this workspace: a transfer is ready, downloaded, about to expire or gone. Each event is a signed HTTPS POST to your URL, retried if your server is down.',
            })}
          </p>
          <p className="mt-2">
            {intl.formatMessage({
              id: 'webhooks.list.emptyPull',
              defaultMessage: 'No public URL? Make a pull endpoint and read the events from the API whenever you like.',
            })}
          </p>
        </EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {webhooks.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function WebhookRow({ webhook }: { webhook: WebhookEndpoint }) {
  const intl = useIntl();
  const name = endpointName(webhook, intl);
  return (
    <li className="relative space-y-2 p-4 focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-zinc-50 dark:hover:bg-zinc-800/40">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="min-w-0 font-medium break-all">
          {/* The whole row is the link's target area; the URL is its accessible text. */}
          <Link
            to="/webhooks/$webhookId"
            params={{ webhookId: webhook.id }}
            className="after:absolute after:inset-0 after:content-[''] focus:outline-none"
          >
            {name}
          </Link>
        </h3>
        <WebhookStatusBadges webhook={webhook} />
      </div>
      {webhook.description ? <p className="text-sm break-words text-zinc-700 dark:text-zinc-300">{webhook.description}</p> : null}
      {!webhook.enabled ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          {webhook.disabledReason
            ? intl.formatMessage({ id: 'webhooks.list.pausedBecause', defaultMessage: 'Paused: {reason}' }, { reason: webhook.disabledReason })
            : intl.formatMessage({ id: 'webhooks.list.paused', defaultMessage: 'Paused' })}
        </p>
      ) : null}
      <ul aria-label={intl.formatMessage({ id: 'webhooks.list.eventsOf', defaultMessage: 'Events of {name}' }, { name })} className="flex flex-wrap gap-1.5">
        {webhook.events.map((type) => (
          <li key={type}>
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{type}</code>
          </li>
        ))}
      </ul>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        {webhook.mode === 'push' ? (
          <>
            <Fact term={intl.formatMessage({ id: 'webhooks.list.lastSuccess', defaultMessage: 'Last success' })}>
              <RelativeTime iso={webhook.lastSuccessAt} />
            </Fact>
            <Fact term={intl.formatMessage({ id: 'webhooks.list.lastFailure', defaultMessage: 'Last failure' })}>
              <RelativeTime iso={webhook.lastFailureAt} />
            </Fact>
          </>
        ) : null}
        <Fact term={intl.formatMessage({ id: 'webhooks.list.created', defaultMessage: 'Created' })}>
          <RelativeTime iso={webhook.createdAt} />
        </Fact>
      </dl>
    </li>
  );
}
