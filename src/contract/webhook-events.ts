/**
 * Event types and their plan rules. Plain values, free of zod, so the browser app can import them.
 */

/** The event types an endpoint can subscribe to. `webhook.test` is sent on request whatever an endpoint subscribes to. */
export const webhookEventTypes = [
  'transfer.ready',
  'transfer.downloaded',
  'transfer.expiring',
  'transfer.expired',
  'collection.file_uploaded',
  'collection.file_reviewed',
  'request.submitted',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

/** Delivered only while the workspace is on a paid plan; a free workspace cannot subscribe to them. */
export const paidWebhookEventTypes: readonly WebhookEventType[] = ['collection.file_uploaded', 'collection.file_reviewed', 'request.submitted'];

export const isPaidWebhookEvent = (type: string) => (paidWebhookEventTypes as readonly string[]).includes(type);

export const webhookEventDescriptions: Record<WebhookEventType, string> = {
  'transfer.ready': 'A transfer was sent and every file finished uploading; the link works.',
  'transfer.downloaded': 'Someone downloaded a transfer (one event per visit).',
  'transfer.expiring': 'A sent transfer expires within 24 hours.',
  'transfer.expired': 'A transfer expired or was revoked and its files are gone.',
  'collection.file_uploaded': 'A file finished uploading into a collection.',
  'collection.file_reviewed': 'A guest or member approved a file of a collection, asked for changes, or cleared their decision.',
  'request.submitted': 'Someone sent files through an upload request and all have arrived.',
  'webhook.test': 'A test was requested (sent whatever the endpoint subscribes to).',
};

/** Endpoints per workspace. */
export const webhookEndpointLimits = { free: 1, paid: 10 } as const;

/** How many delivery attempts in a row must use up every retry before an endpoint is paused. */
export const WEBHOOK_PAUSE_AFTER_EXHAUSTED = 5;

/** Pull endpoints keep events this long. */
export const PULL_RETENTION_DAYS = 30;

/** Events of a transfer that mean nothing once it is gone: `transfer.expired` deletes them (also from pull feeds). */
export const SUPERSEDED_BY_EXPIRY: readonly WebhookEventType[] = ['transfer.ready', 'transfer.expiring', 'transfer.downloaded'];
