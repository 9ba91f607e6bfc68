import type { ReactNode } from 'react';
import type { WebhookEndpoint } from '../api/types';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

export function WebhookFacts({ webhook }: { webhook: WebhookEndpoint }) {
  return (
    <Section title="Overview">
      <dl className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <Fact term="Delivery">{webhook.mode === 'push' ? 'Push (signed POST to the URL)' : 'Pull (read from the API)'}</Fact>
        <Fact term="Status">{webhook.enabled ? 'Enabled' : 'Paused'}</Fact>
        {webhook.mode === 'push' ? (
          <>
            <Fact term="Last success">
              <RelativeTime iso={webhook.lastSuccessAt} />
            </Fact>
            <Fact term="Last failure">
              <RelativeTime iso={webhook.lastFailureAt} />
            </Fact>
          </>
        ) : null}
        <Fact term="Created">
          <RelativeTime iso={webhook.createdAt} />
        </Fact>
        <Fact term="Endpoint id">
          <code className="text-xs">{webhook.id}</code>
        </Fact>
      </dl>
    </Section>
  );
}
