import { isPaidWebhookEvent, webhookEndpointLimits, webhookEventTypes, type WebhookEventType } from '../../../../contract/webhook-events';
import { plural } from '../../../lib/format';
import type { WebhookEndpoint } from '../api/types';

/** What a person calls the endpoint: its URL, or "Pull endpoint" when events wait to be read. */
export function endpointName(webhook: Pick<WebhookEndpoint, 'url'>): string {
  return webhook.url ?? 'Pull endpoint';
}

/**
 * The events one can subscribe to. `webhook.test` is left out: it is sent on request whatever an
 * endpoint subscribes to.
 */
export const subscribableEvents = webhookEventTypes.filter((type) => type !== 'webhook.test');

export function isAllowedEvent(type: WebhookEventType | string, plan: 'free' | 'paid'): boolean {
  return plan === 'paid' || !isPaidWebhookEvent(type);
}

/** "200 OK", or the status alone when it has no common phrase. */
export function describeStatus(statusCode: number, phrase: string): string {
  return phrase ? `${statusCode} ${phrase}` : String(statusCode);
}

/** What the plan allows, for the create card and the limit-reached notice; no plan is named on a server that bills nobody. */
export function planLimitSentence(plan: 'free' | 'paid', limit: number, billing: 'on' | 'off'): string {
  if (billing === 'off') return `Up to ${plural(limit, 'endpoint', 'endpoints')}, each with any events.`;
  return plan === 'free'
    ? `The free plan allows ${plural(limit, 'endpoint', 'endpoints')} and transfer events; the paid plan allows up to ${webhookEndpointLimits.paid} endpoints and every event.`
    : `The paid plan allows up to ${plural(limit, 'endpoint', 'endpoints')}.`;
}
