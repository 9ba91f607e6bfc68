import { describe, expect, it } from 'vitest';
import { deliveryAttempt } from '../testing/fixtures';
import { groupDeliveries } from './delivery-groups';

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('groupDeliveries', () => {
  it('groups attempts by delivery, most recent activity first, a queued first delivery counting from its creation', () => {
    const groups = groupDeliveries({
      attempts: [
        deliveryAttempt({ id: 'a3', deliveryId: 'd_old', attempt: 2, attemptedAt: at(5), success: false, statusCode: 500, nextRetryAt: null }),
        deliveryAttempt({ id: 'a2', deliveryId: 'd_ok', attemptedAt: at(8) }),
        deliveryAttempt({ id: 'a1', deliveryId: 'd_old', attempt: 1, attemptedAt: at(30), success: false, statusCode: 500, nextRetryAt: at(29) }),
      ],
      pending: [{ deliveryId: 'd_new', eventId: 'evt_n', eventType: 'webhook.test', createdAt: at(0), nextAttemptAt: at(0), attempts: 0 }],
    });

    expect(groups.map((g) => [g.deliveryId, g.state, g.attempts.map((a) => a.id)])).toEqual([
      ['d_new', 'queued', []],
      ['d_old', 'failed', ['a3', 'a1']],
      ['d_ok', 'delivered', ['a2']],
    ]);
  });

  it('reports a failed delivery with a retry scheduled, or queued again, as retrying at that time', () => {
    const retryAt = later(5);
    const [scheduled] = groupDeliveries({
      attempts: [deliveryAttempt({ success: false, statusCode: null, error: 'timed out', nextRetryAt: retryAt })],
      pending: [],
    });
    expect(scheduled).toMatchObject({ state: 'retrying', nextAttemptAt: retryAt });

    const queuedFor = later(30);
    const [queued] = groupDeliveries({
      attempts: [deliveryAttempt({ success: false, statusCode: 502, nextRetryAt: null })],
      pending: [{ deliveryId: 'whd_1', eventId: 'evt_1', eventType: 'transfer.ready', createdAt: at(60), nextAttemptAt: queuedFor, attempts: 1 }],
    });
    expect(queued).toMatchObject({ state: 'retrying', nextAttemptAt: queuedFor });
  });
});
