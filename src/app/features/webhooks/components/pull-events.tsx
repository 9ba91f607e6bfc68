import { useEffect, useId, useState, type ReactNode } from 'react';
import { PULL_RETENTION_DAYS } from '../../../../contract/webhook-events';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { pullPagesReadAtOnce, useWebhookEvents } from '../api/get-webhook-events';
import { useSendTestEvent } from '../api/send-test-event';
import type { PulledEvent } from '../api/types';
import { CodeBlock } from './code-block';
import { PullFeedGuide } from './pull-feed-guide';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';

const shownStep = 50;
const watchLimitMs = 60_000;
/** The envelope's field an event's details are in: its name in the API, shown as it is. */
const DATA_FIELD = 'data';

/** The part of a button's words only screen readers hear (what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/**
 * A pull endpoint's events, read from the start of the feed (reading consumes nothing) and shown
 * newest first, with how an integrator reads the same feed.
 */
export function PullEvents({ webhookId }: { webhookId: string }) {
  const intl = useIntl();
  const [awaitedDeliveryId, setAwaitedDeliveryId] = useState<string | null>(null);
  const [shown, setShown] = useState(shownStep);
  const [announcement, setAnnouncement] = useState('');
  const sendTest = useSendTestEvent(webhookId);

  const events = useWebhookEvents(
    webhookId,
    (feed) => awaitedDeliveryId !== null && !feed?.pages.some((page) => page.events.some((event) => event.deliveryId === awaitedDeliveryId)),
  );
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, isError } = events;
  const allEvents = data?.pages.flatMap((page) => page.events) ?? [];
  const pageCount = data?.pages.length ?? 0;

  // Follow the feed to its end (up to a bound), so the newest events are the ones shown.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError && pageCount < pullPagesReadAtOnce) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, pageCount, fetchNextPage]);

  useEffect(() => {
    if (!awaitedDeliveryId) return;
    const timer = setTimeout(() => setAwaitedDeliveryId(null), watchLimitMs);
    return () => clearTimeout(timer);
  }, [awaitedDeliveryId]);

  const newestFirst = [...allEvents].reverse();
  const nextCursor = data?.pages.at(-1)?.nextCursor ?? null;

  return (
    <div className="space-y-6">
      <Section
        title={intl.formatMessage({ id: 'webhooks.pullEvents.title', defaultMessage: 'Events' })}
        description={intl.formatMessage(
          {
            id: 'webhooks.pullEvents.description',
            defaultMessage: 'Newest first. Kept {days, plural, one {# day} other {# days}}; reading them, here or through the API, consumes nothing.',
          },
          { days: PULL_RETENTION_DAYS },
        )}
        actions={
          <>
            <Button variant="secondary" disabled={events.isFetching} onClick={() => void events.refetch()}>
              {events.isFetching && !isFetchingNextPage
                ? intl.formatMessage({ id: 'webhooks.pullEvents.checking', defaultMessage: 'Checking…' })
                : intl.formatMessage({ id: 'webhooks.pullEvents.check', defaultMessage: 'Check for new events' })}
            </Button>
            <Button
              variant="secondary"
              disabled={sendTest.isPending}
              onClick={() =>
                sendTest.mutate(undefined, {
                  onSuccess: ({ deliveryId }) => {
                    setAnnouncement(
                      intl.formatMessage({ id: 'webhooks.pullEvents.testQueued', defaultMessage: 'Test event queued. It appears below in a moment.' }),
                    );
                    setAwaitedDeliveryId(deliveryId);
                    return events.refetch();
                  },
                })
              }
            >
              {sendTest.isPending
                ? intl.formatMessage({ id: 'webhooks.pullEvents.sendingTest', defaultMessage: 'Sending…' })
                : intl.formatMessage({ id: 'webhooks.pullEvents.sendTest', defaultMessage: 'Send test event' })}
            </Button>
          </>
        }
      >
        <p role="status" className={announcement ? 'mb-3 text-sm text-zinc-600 dark:text-zinc-400' : 'sr-only'}>
          {announcement}
        </p>
        <FormError error={sendTest.error} className="mb-3" docsLink />
        {events.isPending ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'webhooks.pullEvents.loading', defaultMessage: 'Loading events…' })}
          </p>
        ) : events.isError && allEvents.length === 0 ? (
          <div className="space-y-3">
            <FormError error={events.error} />
            <Button variant="secondary" onClick={() => void events.refetch()}>
              {intl.formatMessage({ id: 'webhooks.pullEvents.tryAgain', defaultMessage: 'Try again' })}
            </Button>
          </div>
        ) : newestFirst.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({
              id: 'webhooks.pullEvents.empty',
              defaultMessage: 'No events yet. Send a test event, or wait for one you subscribed to.',
            })}
          </p>
        ) : (
          <>
            {isError ? <FormError error={events.error} className="mb-3" /> : null}
            {hasNextPage && !isFetchingNextPage && pageCount >= pullPagesReadAtOnce ? (
              <div className="mb-3 flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
                <p>
                  {intl.formatMessage(
                    { id: 'webhooks.pullEvents.moreWaiting', defaultMessage: 'Newer events are waiting beyond the {count, number} read so far.' },
                    { count: allEvents.length },
                  )}
                </p>
                <Button variant="secondary" onClick={() => void fetchNextPage()}>
                  {intl.formatMessage({ id: 'webhooks.pullEvents.loadNewer', defaultMessage: 'Load newer events' })}
                </Button>
              </div>
            ) : null}
            <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
              {newestFirst.slice(0, shown).map((event) => (
                <PulledEventItem key={`${event.deliveryId}:${event.id}`} event={event} />
              ))}
            </ul>
            {newestFirst.length > shown ? (
              <Button variant="secondary" className="mt-3" onClick={() => setShown(shown + shownStep)}>
                {intl.formatMessage({ id: 'webhooks.pullEvents.showOlder', defaultMessage: 'Show older events' })}
              </Button>
            ) : null}
          </>
        )}
      </Section>
      <Section
        title={intl.formatMessage({ id: 'webhooks.pullEvents.guideTitle', defaultMessage: 'Reading the feed' })}
        description={intl.formatMessage({ id: 'webhooks.pullEvents.guideDescription', defaultMessage: 'What your system does to read these events.' })}
      >
        <PullFeedGuide webhookId={webhookId} nextCursor={nextCursor} />
      </Section>
    </div>
  );
}

function PulledEventItem({ event }: { event: PulledEvent }) {
  const intl = useIntl();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  return (
    <li aria-labelledby={headingId} className="p-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <h3 id={headingId} className="font-mono text-sm font-medium">
              {event.type}
            </h3>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              <RelativeTime iso={event.createdAt} />
            </span>
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
            <div className="flex gap-1">
              <dt>{intl.formatMessage({ id: 'webhooks.pullEvents.eventTerm', defaultMessage: 'Event' })}</dt>
              <dd>
                <code>{event.id}</code>
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>{intl.formatMessage({ id: 'webhooks.pullEvents.deliveryTerm', defaultMessage: 'Delivery' })}</dt>
              <dd>
                <code>{event.deliveryId}</code>
              </dd>
            </div>
          </dl>
        </div>
        <Button variant="ghost" className="px-2 py-1 text-xs" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open
            ? intl.formatMessage({ id: 'webhooks.pullEvents.hideData', defaultMessage: 'Hide data<hidden> of event {eventId}</hidden>' }, { eventId: event.id, hidden })
            : intl.formatMessage({ id: 'webhooks.pullEvents.showData', defaultMessage: 'Show data<hidden> of event {eventId}</hidden>' }, { eventId: event.id, hidden })}
        </Button>
      </div>
      {open ? <CodeBlock label={DATA_FIELD} code={JSON.stringify(event.data, null, 2)} wrap className="mt-3" /> : null}
    </li>
  );
}
