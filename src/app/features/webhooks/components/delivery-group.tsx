import { Fragment, useId, useState, type ReactNode } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { reasonPhrase } from '../../../lib/http-status';
import { useIntl } from '../../../lib/intl';
import type { WebhookDeliveryAttempt } from '../api/types';
import type { DeliveryGroup } from '../utils/delivery-groups';
import { describeStatus } from '../utils/webhook-display';
import { CodeBlock } from './code-block';
import { RelativeTime } from '../../../components/relative-time';

/** The part of a button's words only screen readers hear (what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

function StateBadge({ group }: { group: DeliveryGroup }) {
  const intl = useIntl();
  const due = group.nextAttemptAt && Date.parse(group.nextAttemptAt) > Date.now() ? group.nextAttemptAt : null;
  switch (group.state) {
    case 'delivered':
      return <Badge tone="success">{intl.formatMessage({ id: 'webhooks.delivery.stateDelivered', defaultMessage: 'Delivered' })}</Badge>;
    case 'failed':
      return <Badge tone="warning">{intl.formatMessage({ id: 'webhooks.delivery.stateFailed', defaultMessage: 'Failed' })}</Badge>;
    case 'retrying':
      return (
        <Badge tone="warning">
          {due
            ? intl.formatMessage({ id: 'webhooks.delivery.stateRetryingAt', defaultMessage: 'Retrying at {time}' }, { time: formatDateTime(due) })
            : intl.formatMessage({ id: 'webhooks.delivery.stateRetryingNow', defaultMessage: 'Retrying now' })}
        </Badge>
      );
    case 'queued':
      return (
        <Badge tone="neutral">
          {due
            ? intl.formatMessage({ id: 'webhooks.delivery.stateQueuedFor', defaultMessage: 'Queued for {time}' }, { time: formatDateTime(due) })
            : intl.formatMessage({ id: 'webhooks.delivery.stateQueued', defaultMessage: 'Queued' })}
        </Badge>
      );
  }
}

interface DeliveryGroupItemProps {
  group: DeliveryGroup;
  retrying: boolean;
  onRetry: () => void;
}

/** One event's delivery: what it is, where it stands, every attempt, and a Retry button. */
export function DeliveryGroupItem({ group, retrying, onRetry }: DeliveryGroupItemProps) {
  const intl = useIntl();
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
              <dt>{intl.formatMessage({ id: 'webhooks.delivery.deliveryTerm', defaultMessage: 'Delivery' })}</dt>
              <dd>
                <code>{group.deliveryId}</code>
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>{intl.formatMessage({ id: 'webhooks.delivery.eventTerm', defaultMessage: 'Event' })}</dt>
              <dd>
                <code>{group.eventId}</code>
              </dd>
            </div>
          </dl>
        </div>
        <Button variant="secondary" className="px-2.5 py-1 text-xs" disabled={retrying} onClick={onRetry}>
          {retrying
            ? intl.formatMessage(
                { id: 'webhooks.delivery.retrying', defaultMessage: 'Retrying…<hidden> delivery {deliveryId}</hidden>' },
                { deliveryId: group.deliveryId, hidden },
              )
            : intl.formatMessage(
                { id: 'webhooks.delivery.retry', defaultMessage: 'Retry<hidden> delivery {deliveryId}</hidden>' },
                { deliveryId: group.deliveryId, hidden },
              )}
        </Button>
      </div>
      {group.attempts.length === 0 ? (
        <p className="border-t border-zinc-200 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          {intl.formatMessage({ id: 'webhooks.delivery.waitingForFirst', defaultMessage: 'Waiting for its first attempt.' })}
        </p>
      ) : (
        <AttemptsTable deliveryId={group.deliveryId} attempts={group.attempts} />
      )}
    </li>
  );
}

const cellClass = 'px-3 py-2 align-top';
/** In an empty cell: a sign, not a word (hidden from screen readers, which hear "none"). */
const EMPTY_CELL = '—';

function AttemptsTable({ deliveryId, attempts }: { deliveryId: string; attempts: WebhookDeliveryAttempt[] }) {
  const intl = useIntl();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="overflow-x-auto border-t border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-start text-sm">
        <caption className="sr-only">
          {intl.formatMessage({ id: 'webhooks.attempts.caption', defaultMessage: 'Attempts of delivery {deliveryId}, newest first' }, { deliveryId })}
        </caption>
        <thead className="bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900/60 dark:text-zinc-400">
          <tr>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'webhooks.attempts.attemptColumn', defaultMessage: 'Attempt' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'webhooks.attempts.sentColumn', defaultMessage: 'Sent' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'webhooks.attempts.resultColumn', defaultMessage: 'Result' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'webhooks.attempts.durationColumn', defaultMessage: 'Duration' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'webhooks.attempts.nextRetryColumn', defaultMessage: 'Next retry' })}
            </th>
            <th scope="col" className={cellClass}>
              <span className="sr-only">{intl.formatMessage({ id: 'webhooks.attempts.bodiesColumn', defaultMessage: 'Request and response' })}</span>
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
  const intl = useIntl();
  return (
    <tr>
      <td className={`${cellClass} whitespace-nowrap`}>
        {intl.formatMessage({ id: 'webhooks.attempts.number', defaultMessage: '#{attempt}' }, { attempt: attempt.attempt })}
        {attempt.manual ? (
          <span className="ms-1 text-xs text-zinc-500 dark:text-zinc-400">
            {intl.formatMessage({ id: 'webhooks.attempts.manual', defaultMessage: '(manual)' })}
          </span>
        ) : null}
      </td>
      <td className={`${cellClass} whitespace-nowrap`}>
        <RelativeTime iso={attempt.attemptedAt} />
      </td>
      <td className={cellClass}>
        {attempt.statusCode !== null ? (
          <Badge tone={attempt.success ? 'success' : 'warning'}>{describeStatus(attempt.statusCode, reasonPhrase(attempt.statusCode))}</Badge>
        ) : (
          <Badge tone="warning">{intl.formatMessage({ id: 'webhooks.attempts.noResponse', defaultMessage: 'No response' })}</Badge>
        )}
        {attempt.error ? <p className="mt-1 max-w-xs text-xs break-words text-red-700 dark:text-red-400">{attempt.error}</p> : null}
      </td>
      <td className={`${cellClass} whitespace-nowrap`}>
        {intl.formatMessage({ id: 'webhooks.attempts.duration', defaultMessage: '{duration} ms' }, { duration: formatInteger(attempt.durationMs) })}
      </td>
      <td className={`${cellClass} whitespace-nowrap`}>
        {attempt.nextRetryAt ? (
          <time dateTime={attempt.nextRetryAt}>{formatDateTime(attempt.nextRetryAt)}</time>
        ) : (
          <>
            <span aria-hidden="true">{EMPTY_CELL}</span>
            <span className="sr-only">{intl.formatMessage({ id: 'webhooks.attempts.noNextRetry', defaultMessage: 'none' })}</span>
          </>
        )}
      </td>
      <td className={`${cellClass} text-end`}>
        <Button variant="ghost" className="px-2 py-1 text-xs whitespace-nowrap" aria-expanded={open} onClick={onToggle}>
          {open
            ? intl.formatMessage(
                { id: 'webhooks.attempts.hideBodies', defaultMessage: 'Hide request<hidden> and response of attempt {attempt}</hidden>' },
                { attempt: attempt.attempt, hidden },
              )
            : intl.formatMessage(
                { id: 'webhooks.attempts.showBodies', defaultMessage: 'Show request<hidden> and response of attempt {attempt}</hidden>' },
                { attempt: attempt.attempt, hidden },
              )}
        </Button>
      </td>
    </tr>
  );
}

function AttemptBodies({ attempt }: { attempt: WebhookDeliveryAttempt }) {
  const intl = useIntl();
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <CodeBlock label={intl.formatMessage({ id: 'webhooks.attempts.requestBody', defaultMessage: 'Request body' })} code={attempt.requestBody} wrap />
      {attempt.responseBody ? (
        <CodeBlock
          label={intl.formatMessage({ id: 'webhooks.attempts.responseBody', defaultMessage: 'Response body (first 2 KiB)' })}
          code={attempt.responseBody}
          wrap
        />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'webhooks.attempts.noResponseBody', defaultMessage: 'No response body.' })}
        </p>
      )}
    </div>
  );
}
