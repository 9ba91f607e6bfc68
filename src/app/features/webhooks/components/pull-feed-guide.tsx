import { useId } from 'react';
import { PULL_RETENTION_DAYS } from '../../../../contract/webhook-events';
import { CopyField } from '../../../components/copy-field';
import { useIntl } from '../../../lib/intl';
import { CodeBlock } from './code-block';

function readRequest(webhookId: string, cursor: string | null): string {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}&limit=100` : '?limit=100';
  return `curl "${origin}/api/v1/webhooks/${webhookId}/events${query}" \\\n  -H "Authorization: Bearer $PARCEL_API_KEY"`;
}

/**
 * How an integrator reads a pull endpoint: the request, the loop on `nextCursor`, and (once the
 * dashboard has read the feed) the cursor that returns only what arrives next.
 */
export function PullFeedGuide({ webhookId, nextCursor }: { webhookId: string; nextCursor: string | null }) {
  const intl = useIntl();
  const cursorHintId = useId();
  // The API's own words (a request, a scope, fields of its answer): shown as code, never translated.
  const code = (key: string, text: string) => <code key={key}>{text}</code>;
  return (
    <div className="space-y-4 text-sm text-zinc-700 dark:text-zinc-300">
      <ol className="list-decimal space-y-1 ps-5">
        <li>
          {intl.formatMessage(
            {
              id: 'webhooks.pullGuide.stepRead',
              defaultMessage:
                'Call {request} with an API key that has {scope}. The first read, without a cursor, starts at the oldest event kept ({days, plural, one {# day} other {# days}}).',
            },
            { request: code('request', `GET /api/v1/webhooks/${webhookId}/events`), scope: code('scope', 'webhooks:read'), days: PULL_RETENTION_DAYS },
          )}
        </li>
        <li>
          {intl.formatMessage(
            {
              id: 'webhooks.pullGuide.stepCursor',
              defaultMessage:
                'Store the {nextCursor} of each answer and send it back as {cursor} next time. It is always present, even when nothing is new; read again at once while {hasMore} is true.',
            },
            { nextCursor: code('nextCursor', 'nextCursor'), cursor: code('cursor', 'cursor'), hasMore: code('hasMore', 'hasMore') },
          )}
        </li>
        <li>
          {intl.formatMessage(
            {
              id: 'webhooks.pullGuide.stepDeduplicate',
              defaultMessage: 'Reading consumes nothing, and an event may be read more than once: deduplicate on its {id}.',
            },
            { id: code('id', 'id') },
          )}
        </li>
      </ol>
      <CodeBlock
        label={intl.formatMessage({ id: 'webhooks.pullGuide.requestLabel', defaultMessage: 'Read the next events' })}
        code={readRequest(webhookId, nextCursor)}
      />
      {nextCursor ? (
        <div className="text-zinc-900 dark:text-zinc-100">
          <CopyField
            label={intl.formatMessage({ id: 'webhooks.pullGuide.cursorLabel', defaultMessage: 'Current {field}' }, { field: 'nextCursor' })}
            value={nextCursor}
            describedBy={cursorHintId}
          />
          <p id={cursorHintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({
              id: 'webhooks.pullGuide.cursorHint',
              defaultMessage: 'The cursor after the newest event shown on this page: reading with it returns only events that arrive from now on.',
            })}
          </p>
        </div>
      ) : null}
    </div>
  );
}
