import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { webhookKeys } from '../api/query-keys';
import { useRetryWebhookDelivery } from '../api/retry-webhook-delivery';
import { useSendTestEvent } from '../api/send-test-event';
import type { WebhookDeliveryList } from '../api/types';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { groupDeliveries } from '../utils/delivery-groups';
import { DeliveryGroupItem } from './delivery-group';
import { Section } from '../../../components/section';

/** A delivery the user just asked for (a test or a retry), watched until a new attempt shows up. */
interface Watch {
  deliveryId: string;
  attemptsBefore: number;
}

const watchLimitMs = 60_000;

const attemptsOf = (data: WebhookDeliveryList | undefined, deliveryId: string) =>
  data?.attempts.filter((attempt) => attempt.deliveryId === deliveryId).length ?? 0;

export function DeliveryList({ webhookId }: { webhookId: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [watch, setWatch] = useState<Watch | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const deliveries = useWebhookDeliveries(webhookId, (data) => watch !== null && attemptsOf(data, watch.deliveryId) <= watch.attemptsBefore);
  const sendTest = useSendTestEvent(webhookId);
  const retry = useRetryWebhookDelivery(webhookId);

  // A new attempt changes the endpoint's last success or failure: read the endpoint again.
  const newestAttempt = deliveries.data ? (deliveries.data.attempts[0]?.id ?? 'none') : null;
  const seenAttempt = useRef<string | null>(null);
  useEffect(() => {
    if (newestAttempt === null) return;
    if (seenAttempt.current !== null && seenAttempt.current !== newestAttempt) {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.detail(webhookId) });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    }
    seenAttempt.current = newestAttempt;
  }, [newestAttempt, queryClient, webhookId]);

  // Give up watching after a minute: the delivery is then queued or retrying, and the list says so.
  useEffect(() => {
    if (!watch) return;
    const timer = setTimeout(() => setWatch(null), watchLimitMs);
    return () => clearTimeout(timer);
  }, [watch]);

  function startWatching(deliveryId: string) {
    setWatch({ deliveryId, attemptsBefore: attemptsOf(deliveries.data, deliveryId) });
  }

  const groups = deliveries.data ? groupDeliveries(deliveries.data) : [];

  return (
    <Section
      title={intl.formatMessage({ id: 'webhooks.deliveries.title', defaultMessage: 'Deliveries' })}
      description={intl.formatMessage({
        id: 'webhooks.deliveries.description',
        defaultMessage:
          'The 100 most recent attempts, newest first. Failed deliveries are retried after 1, 5 and 30 minutes, then 2, 6, 12 and 24 hours.',
      })}
      actions={
        <Button
          variant="secondary"
          disabled={sendTest.isPending}
          onClick={() =>
            sendTest.mutate(undefined, {
              onSuccess: ({ deliveryId }) => {
                setAnnouncement(
                  intl.formatMessage({ id: 'webhooks.deliveries.testQueued', defaultMessage: 'Test event queued. Its delivery appears below in a moment.' }),
                );
                startWatching(deliveryId);
                return queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) });
              },
            })
          }
        >
          {sendTest.isPending
            ? intl.formatMessage({ id: 'webhooks.deliveries.sendingTest', defaultMessage: 'Sending…' })
            : intl.formatMessage({ id: 'webhooks.deliveries.sendTest', defaultMessage: 'Send test event' })}
        </Button>
      }
    >
      <p role="status" className={announcement ? 'mb-3 text-sm text-zinc-600 dark:text-zinc-400' : 'sr-only'}>
        {announcement}
      </p>
      <FormError error={sendTest.error ?? retry.error} className="mb-3" docsLink />
      {deliveries.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'webhooks.deliveries.loading', defaultMessage: 'Loading deliveries…' })}
        </p>
      ) : deliveries.isError ? (
        <div className="space-y-3">
          <FormError error={deliveries.error} />
          <Button variant="secondary" onClick={() => void deliveries.refetch()}>
            {intl.formatMessage({ id: 'webhooks.deliveries.tryAgain', defaultMessage: 'Try again' })}
          </Button>
        </div>
      ) : groups.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'webhooks.deliveries.empty',
            defaultMessage: 'Nothing delivered yet. Send a test event to check that your receiver answers with a 2xx status.',
          })}
        </p>
      ) : (
        <ul className="space-y-4">
          {groups.map((group) => (
            <DeliveryGroupItem
              key={group.deliveryId}
              group={group}
              retrying={retry.isPending && retry.variables === group.deliveryId}
              onRetry={() =>
                retry.mutate(group.deliveryId, {
                  onSuccess: ({ deliveryId }) => {
                    setAnnouncement(
                      intl.formatMessage({ id: 'webhooks.deliveries.retryQueued', defaultMessage: 'Delivery {deliveryId} queued again.' }, { deliveryId }),
                    );
                    startWatching(deliveryId);
                  },
                })
              }
            />
          ))}
        </ul>
      )}
    </Section>
  );
}
