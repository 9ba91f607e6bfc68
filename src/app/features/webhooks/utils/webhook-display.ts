import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import { isPaidWebhookEvent, webhookEndpointLimits, webhookEventTypes, type WebhookEventType } from '../../../../contract/webhook-events';
import type { WebhookEndpoint } from '../api/types';

/** What a person calls the endpoint: its URL, or "Pull endpoint" when events wait to be read. */
export function endpointName(webhook: Pick<WebhookEndpoint, 'url'>, intl: IntlShape): string {
  return webhook.url ?? intl.formatMessage({ id: 'webhooks.endpoint.pullName', defaultMessage: 'Pull endpoint' });
}

/**
 * The events one can subscribe to. `webhook.test` is left out: it is sent on request whatever an
 * endpoint subscribes to.
 */
export const subscribableEvents = webhookEventTypes.filter((type) => type !== 'webhook.test');

export function isAllowedEvent(type: WebhookEventType | string, plan: 'free' | 'paid'): boolean {
  return plan === 'paid' || !isPaidWebhookEvent(type);
}

/** What each event means, in the reader's words (the event's name itself is an API identifier, shown as code). */
const eventDescriptions: Record<WebhookEventType, MessageDescriptor> = defineMessages({
  'transfer.ready': { id: 'webhooks.event.transferReady', defaultMessage: 'A transfer was sent and every file finished uploading; the link works.' },
  'transfer.downloaded': { id: 'webhooks.event.transferDownloaded', defaultMessage: 'Someone downloaded a transfer (one event per visit).' },
  'transfer.expiring': { id: 'webhooks.event.transferExpiring', defaultMessage: 'A sent transfer expires within 24 hours.' },
  'transfer.expired': { id: 'webhooks.event.transferExpired', defaultMessage: 'A transfer expired or was revoked and its files are gone.' },
  'collection.file_uploaded': { id: 'webhooks.event.collectionFileUploaded', defaultMessage: 'A file finished uploading into a collection.' },
  'collection.file_reviewed': {
    id: 'webhooks.event.collectionFileReviewed',
    defaultMessage: 'A guest or member approved a file of a collection, asked for changes, or cleared their decision.',
  },
  'request.submitted': { id: 'webhooks.event.requestSubmitted', defaultMessage: 'Someone sent files through an upload request and all have arrived.' },
  'webhook.test': { id: 'webhooks.event.webhookTest', defaultMessage: 'A test was requested (sent whatever the endpoint subscribes to).' },
});

export function eventDescription(type: WebhookEventType, intl: IntlShape): string {
  return intl.formatMessage(eventDescriptions[type]);
}

/** "200 OK", or the status alone when it has no common phrase. */
export function describeStatus(statusCode: number, phrase: string): string {
  return phrase ? `${statusCode} ${phrase}` : String(statusCode);
}

/** What the plan allows, for the create card and the limit-reached notice; no plan is named on a server that bills nobody. */
export function planLimitSentence(plan: 'free' | 'paid', limit: number, billing: 'on' | 'off', intl: IntlShape): string {
  if (billing === 'off') {
    return intl.formatMessage(
      { id: 'webhooks.plan.unbilledLimit', defaultMessage: 'Up to {limit, plural, one {# endpoint} other {# endpoints}}, each with any events.' },
      { limit },
    );
  }
  return plan === 'free'
    ? intl.formatMessage(
        {
          id: 'webhooks.plan.freeLimit',
          defaultMessage:
            'The free plan allows {limit, plural, one {# endpoint} other {# endpoints}} and transfer events; the paid plan allows up to {paidLimit, plural, one {# endpoint} other {# endpoints}} and every event.',
        },
        { limit, paidLimit: webhookEndpointLimits.paid },
      )
    : intl.formatMessage({ id: 'webhooks.plan.paidLimit', defaultMessage: 'The paid plan allows up to {limit, plural, one {# endpoint} other {# endpoints}}.' }, { limit });
}
