import type { Me } from '../../../../contract/me';
import { webhookEndpointLimits } from '../../../../contract/webhook-events';
import { account } from '../../../test/fixtures';
import type { PulledEvent, WebhookDeliveryAttempt, WebhookEndpoint } from '../api/types';

const minute = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export const signingSecret = 'whsec_J1tq3w2n0v5XcN8yR6bZ4mK9pL7sD2fG5hA0eU3iO1k';

export function webhookEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 'wh_1',
    url: 'https://hooks.example.com/parcel',
    mode: 'push',
    description: 'Order system',
    events: ['transfer.ready', 'transfer.downloaded'],
    enabled: true,
    disabledReason: null,
    lastSuccessAt: ago(5 * minute),
    lastFailureAt: null,
    createdAt: ago(3 * 24 * 60 * minute),
    updatedAt: ago(3 * 24 * 60 * minute),
    ...overrides,
  };
}

export function pullEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return webhookEndpoint({ id: 'wh_pull', url: null, mode: 'pull', description: 'Nightly import', lastSuccessAt: null, ...overrides });
}

export function deliveryAttempt(overrides: Partial<WebhookDeliveryAttempt> = {}): WebhookDeliveryAttempt {
  return {
    id: 'wha_1',
    deliveryId: 'whd_1',
    eventId: 'evt_1',
    eventType: 'transfer.ready',
    attempt: 1,
    manual: false,
    attemptedAt: ago(10 * minute),
    success: true,
    statusCode: 200,
    error: null,
    durationMs: 84,
    nextRetryAt: null,
    requestBody: '{"id":"evt_1","type":"transfer.ready","createdAt":"2026-11-20T10:00:00.000Z","data":{"transfer":{"id":"tr_1"}}}',
    responseBody: 'ok',
    ...overrides,
  };
}

export function pulledEvent(overrides: Partial<PulledEvent> = {}): PulledEvent {
  return {
    deliveryId: 'whd_p1',
    id: 'evt_p1',
    type: 'transfer.ready',
    createdAt: ago(60 * minute),
    data: { transfer: { id: 'tr_1', title: 'Quarterly report' } },
    ...overrides,
  };
}

/** The account as `GET /me` reports it, with the plan's real endpoint allowance. */
export function webhookAccount(plan: 'free' | 'paid' = 'free'): Me {
  const base = account();
  return { ...base, plan: { ...base.plan, name: plan, limits: { ...base.plan.limits, webhookEndpoints: webhookEndpointLimits[plan] } } };
}
