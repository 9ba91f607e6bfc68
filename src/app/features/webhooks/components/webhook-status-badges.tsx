import { Badge } from '../../../components/badge';
import { useIntl } from '../../../lib/intl';
import type { WebhookEndpoint } from '../api/types';

export function WebhookStatusBadges({ webhook }: { webhook: WebhookEndpoint }) {
  const intl = useIntl();
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone="accent">
        {webhook.mode === 'push'
          ? intl.formatMessage({ id: 'webhooks.badges.push', defaultMessage: 'Push' })
          : intl.formatMessage({ id: 'webhooks.badges.pull', defaultMessage: 'Pull' })}
      </Badge>
      {webhook.enabled ? (
        <Badge tone="success">{intl.formatMessage({ id: 'webhooks.badges.enabled', defaultMessage: 'Enabled' })}</Badge>
      ) : (
        <Badge tone="warning">{intl.formatMessage({ id: 'webhooks.badges.paused', defaultMessage: 'Paused' })}</Badge>
      )}
    </span>
  );
}
