import { Fragment, useId, useState } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { reasonPhrase } from '../../../lib/http-status';
import type { WebhookDeliveryAttempt } from '../api/types';
import type { DeliveryGroup } from '../utils/delivery-groups';
import { describeStatus } from '../utils/webhook-display';
import { CodeBlock } from './code-block';
import { RelativeTime } from '../../../components/relative-time';

function StateBadge({ group }: { group: DeliveryGroup }) {
  const due = group.nextAttemptAt && Date.parse(group.nextAttemptAt) > Date.now() ? group.nextAttemptAt : null;
  switch (group.state) {
    case 'delivered':
      return <Badge tone="success">Delivered</Badge>;
    case 'failed':
      return <Badge tone="warning">Failed</Badge>;
    case 'retrying':
      return <Badge tone="warning">{due ? `Retrying at ${formatDateTime(due)}` : 'Retrying now'}</Badge>;
    case 'queued':
      return <Badge tone="neutral">{due ? `Queued for ${formatDateTime(due)}` : 'Queued'}</Badge>;
  }
}

interface DeliveryGroupItemProps {
  group: DeliveryGroup;
  retrying: boolean;
  onRetry: () => void;
}

/** One event's delivery: what it is, where it stands, every attempt, and a Retry button. */
export function DeliveryGroupItem({ group, retrying, onRetry }: DeliveryGroupItemProps) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="rounded-md border border-zinc-200 dark:border-zinc-800">
      <div className="flex flex-wrap items-start justify-between gap-3 p-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="font-mono text-sm font-medium">
              {group.eventType}
            </h3>
            <StateBadge group={group} />
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
            <div className="flex gap-1">
              <dt>Delivery</dt>
              <dd>
                <code>{group.deliveryId}</code>
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>Event</dt>
              <dd>
                <code>{group.eventId}</code>
              </dd>
            </div>
          </dl>
        </div>
        <Button variant="secondary" className="px-2.5 py-1 text-xs" disabled={retrying} onClick={onRetry}>
          {retrying ? 'Retrying…' : 'Retry'}
          <span className="sr-only"> delivery {group.deliveryId}</span>
        </Button>
      </div>
      {group.attempts.length === 0 ? (
        <p className="border-t border-zinc-200 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          Waiting for its first attempt.
        </p>
      ) : (
        <AttemptsTable deliveryId={group.deliveryId} attempts={group.attempts} />
      )}
    </li>
  );
}

const cellClass = 'px-3 py-2 align-top';

function AttemptsTable({ deliveryId, attempts }: { deliveryId: string; attempts: WebhookDeliveryAttempt[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="overflow-x-auto border-t border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Attempts of delivery {deliveryId}, newest first</caption>
        <thead className="bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900/60 dark:text-zinc-400">
          <tr>
            <th scope="col" className={cellClass}>
              Attempt
            </th>
            <th scope="col" className={cellClass}>
              Sent
            </th>
            <th scope="col" className={cellClass}>
              Result
            </th>
            <th scope="col" className={cellClass}>
              Duration
            </th>
            <th scope="col" className={cellClass}>
              Next retry
            </th>
            <th scope="col" className={cellClass}>
              <span className="sr-only">Request and response</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {attempts.map((attempt) => (
            <Fragment key={attempt.id}>
              <AttemptRow attempt={attempt} open={open === attempt.id} onToggle={() => setOpen(open === attempt.id ? null : attempt.id)} />
              {open === attempt.id ? (
                <tr>
                  <td colSpan={6} className="bg-zinc-50 p-3 dark:bg-zinc-900/40">
                    <AttemptBodies attempt={attempt} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AttemptRow({ attempt, open, onToggle }: { attempt: WebhookDeliveryAttempt; open: boolean; onToggle: () => void }) {
  return (
    <tr>
      <td className={`${cellClass} whitespace-nowrap`}>
        #{attempt.attempt}
        {attempt.manual ? <span className="ml-1 text-xs text-zinc-500 dark:text-zinc-400">(manual)</span> : null}
      </td>
      <td className={`${cellClass} whitespace-nowrap`}>
        <RelativeTime iso={attempt.attemptedAt} />
      </td>
      <td className={cellClass}>
        {attempt.statusCode !== null ? (
          <Badge tone={attempt.success ? 'success' : 'warning'}>{describeStatus(attempt.statusCode, reasonPhrase(attempt.statusCode))}</Badge>
        ) : (
          <Badge tone="warning">No response</Badge>
        )}
        {attempt.error ? <p className="mt-1 max-w-xs text-xs break-words text-red-700 dark:text-red-400">{attempt.error}</p> : null}
      </td>
      <td className={`${cellClass} whitespace-nowrap`}>{formatInteger(attempt.durationMs)} ms</td>
      <td className={`${cellClass} whitespace-nowrap`}>
        {attempt.nextRetryAt ? (
          <time dateTime={attempt.nextRetryAt}>{formatDateTime(attempt.nextRetryAt)}</time>
        ) : (
          <>
            <span aria-hidden="true">—</span>
            <span className="sr-only">none</span>
          </>
        )}
      </td>
      <td className={`${cellClass} text-right`}>
        <Button variant="ghost" className="px-2 py-1 text-xs whitespace-nowrap" aria-expanded={open} onClick={onToggle}>
          {open ? 'Hide' : 'Show'} request<span className="sr-only"> and response of attempt {attempt.attempt}</span>
        </Button>
      </td>
    </tr>
  );
}

function AttemptBodies({ attempt }: { attempt: WebhookDeliveryAttempt }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <CodeBlock label="Request body" code={attempt.requestBody} wrap />
      {attempt.responseBody ? (
        <CodeBlock label="Response body (first 2 KiB)" code={attempt.responseBody} wrap />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No response body.</p>
      )}
    </div>
  );
}
