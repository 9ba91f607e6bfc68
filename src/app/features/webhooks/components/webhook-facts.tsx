import type { ReactNode } from 'react';
import { useIntl } from '../../../lib/intl';
import type { WebhookEndpoint } from '../api/types';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 text-end break-words">{children}</dd>
    </div>
  );
}

export function WebhookFacts({ webhook }: { webhook: WebhookEndpoint }) {
  const intl = useIntl();
  return (
    <Section title={intl.formatMessage({ id: 'webhooks.facts.title', defaultMessage: 'Overview' })}>
      <dl className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <Fact term={intl.formatMessage({ id: 'webhooks.facts.delivery', defaultMessage: 'Delivery' })}>
          {webhook.mode === 'push'
            ? intl.formatMessage({ id: 'webhooks.facts.deliveryPush', defaultMessage: 'Push (signed POST to the URL)' })
            : intl.formatMessage({ id: 'webhooks.facts.deliveryPull', defaultMessage: 'Pull (read from the API)' })}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'webhooks.facts.status', defaultMessage: 'Status' })}>
          {webhook.enabled
            ? intl.formatMessage({ id: 'webhooks.facts.enabled', defaultMessage: 'Enabled' })
            : intl.formatMessage({ id: 'webhooks.facts.paused', defaultMessage: 'Paused' })}
        </Fact>
        {webhook.mode === 'push' ? (
          <>
            <Fact term={intl.formatMessage({ id: 'webhooks.facts.lastSuccess', defaultMessage: 'Last success' })}>
              <RelativeTime iso={webhook.lastSuccessAt} />
            </Fact>
            <Fact term={intl.formatMessage({ id: 'webhooks.facts.lastFailure', defaultMessage: 'Last failure' })}>
              <RelativeTime iso={webhook.lastFailureAt} />
            </Fact>
          </>
        ) : null}
        <Fact term={intl.formatMessage({ id: 'webhooks.facts.created', defaultMessage: 'Created' })}>
          <RelativeTime iso={webhook.createdAt} />
        </Fact>
        <Fact term={intl.formatMessage({ id: 'webhooks.facts.endpointId', defaultMessage: 'Endpoint id' })}>
          <code className="text-xs">{webhook.id}</code>
        </Fact>
      </dl>
    </Section>
  );
}
