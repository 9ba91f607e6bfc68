import { useId } from 'react';
import { PULL_RETENTION_DAYS } from '../../../../contract/webhook-events';
import { CopyField } from '../../../components/copy-field';
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
  const cursorHintId = useId();
  return (
    <div className="space-y-4 text-sm text-zinc-700 dark:text-zinc-300">
      <ol className="list-decimal space-y-1 pl-5">
        <li>
          Call <code>GET /api/v1/webhooks/{webhookId}/events</code> with an API key that has <code>webhooks:read</code>. The first read, without
          a cursor, starts at the oldest event kept ({PULL_RETENTION_DAYS} days).
        </li>
        <li>
          Store the <code>nextCursor</code> of each answer and send it back as <code>cursor</code> next time. It is always present, even
          when nothing is new; read again at once while <code>hasMore</code> is true.
        </li>
        <li>
          Reading consumes nothing, and an event may be read more than once: deduplicate on its <code>id</code>.
        </li>
      </ol>
      <CodeBlock label="Read the next events" code={readRequest(webhookId, nextCursor)} />
      {nextCursor ? (
        <div className="text-zinc-900 dark:text-zinc-100">
          <CopyField label="Current nextCursor" value={nextCursor} describedBy={cursorHintId} />
          <p id={cursorHintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            The cursor after the newest event shown on this page: reading with it returns only events that arrive from now on.
          </p>
        </div>
      ) : null}
    </div>
  );
}
