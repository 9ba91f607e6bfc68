import { Badge } from '../../../components/badge';
import type { WebhookEndpoint } from '../api/types';

export function WebhookStatusBadges({ webhook }: { webhook: WebhookEndpoint }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone="accent">{webhook.mode === 'push' ? 'Push' : 'Pull'}</Badge>
      {webhook.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Paused</Badge>}
    </span>
  );
}
