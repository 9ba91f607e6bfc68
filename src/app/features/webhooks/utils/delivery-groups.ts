import type { PendingDelivery, WebhookDeliveryAttempt, WebhookDeliveryList } from '../api/types';

export type DeliveryState = 'queued' | 'retrying' | 'delivered' | 'failed';

/** One event's delivery to this endpoint: its attempts (newest first) and, while queued, when it goes next. */
export interface DeliveryGroup {
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempts: WebhookDeliveryAttempt[];
  pending: PendingDelivery | null;
  state: DeliveryState;
  /** When the next attempt is due, if one is. */
  nextAttemptAt: string | null;
}

function stateOf(attempts: WebhookDeliveryAttempt[], pending: PendingDelivery | null): { state: DeliveryState; nextAttemptAt: string | null } {
  const latest = attempts[0];
  if (pending) return { state: latest ? 'retrying' : 'queued', nextAttemptAt: pending.nextAttemptAt };
  if (!latest) return { state: 'queued', nextAttemptAt: null };
  if (latest.success) return { state: 'delivered', nextAttemptAt: null };
  return latest.nextRetryAt ? { state: 'retrying', nextAttemptAt: latest.nextRetryAt } : { state: 'failed', nextAttemptAt: null };
}

/**
 * Attempts grouped by delivery (each group keeps the API's order, newest attempt first), most
 * recent activity first: a delivery still waiting for its first attempt counts from when it was created.
 */
export function groupDeliveries({ attempts, pending }: WebhookDeliveryList): DeliveryGroup[] {
  const byId = new Map<string, { attempts: WebhookDeliveryAttempt[]; pending: PendingDelivery | null; eventId: string; eventType: string }>();
  for (const attempt of attempts) {
    const group = byId.get(attempt.deliveryId);
    if (group) group.attempts.push(attempt);
    else byId.set(attempt.deliveryId, { attempts: [attempt], pending: null, eventId: attempt.eventId, eventType: attempt.eventType });
  }
  for (const item of pending) {
    const group = byId.get(item.deliveryId);
    if (group) group.pending = item;
    else byId.set(item.deliveryId, { attempts: [], pending: item, eventId: item.eventId, eventType: item.eventType });
  }
  const activity = (group: { attempts: WebhookDeliveryAttempt[]; pending: PendingDelivery | null }) =>
    Date.parse(group.attempts[0]?.attemptedAt ?? group.pending?.createdAt ?? '') || 0;
  return [...byId.entries()]
    .map(([deliveryId, group]) => ({ deliveryId, ...group, ...stateOf(group.attempts, group.pending) }))
    .sort((a, b) => activity(b) - activity(a));
}
