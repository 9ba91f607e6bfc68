import { Link } from '@tanstack/react-router';
import { Glyph } from '../../../components/glyphs';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { WebhookEndpoint } from '../api/types';
import { endpointName } from '../utils/webhook-display';
import { WebhookStatusBadges } from './webhook-status-badges';

/** The page's title is the URL, which can be long and unbroken: it wraps anywhere. */
export function WebhookHeader({ webhook }: { webhook: WebhookEndpoint }) {
  const intl = useIntl();
  const name = endpointName(webhook, intl);
  useDocumentTitle(webhook.mode === 'push' ? intl.formatMessage({ id: 'webhooks.header.pushTitle', defaultMessage: 'Webhook {name}' }, { name }) : name);
  return (
    <div className="mb-8">
      <p className="mb-2 text-sm">
        <Link to="/webhooks" className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
          <Glyph sign="previous" /> {intl.formatMessage({ id: 'webhooks.header.back', defaultMessage: 'Webhooks' })}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight break-all">{name}</h1>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <WebhookStatusBadges webhook={webhook} />
        {webhook.description ? <p className="text-sm break-words text-zinc-600 dark:text-zinc-400">{webhook.description}</p> : null}
      </div>
      {!webhook.enabled ? (
        <p className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200">
          {webhook.disabledReason
            ? intl.formatMessage(
                { id: 'webhooks.header.pausedBecause', defaultMessage: 'Paused: {reason} It gets no new events until you resume it.' },
                { reason: webhook.disabledReason },
              )
            : intl.formatMessage({ id: 'webhooks.header.paused', defaultMessage: 'Paused. It gets no new events until you resume it.' })}
        </p>
      ) : null}
    </div>
  );
}
