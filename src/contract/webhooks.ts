import { z } from '@hono/zod-openapi';
import { FileAdderSchema } from './collections.js';
import { cursorParam, limitParam } from './pagination.js';
import { SenderSchema } from './transfers.js';
import { paidWebhookEventTypes, webhookEventTypes } from './webhook-events.js';

/**
 * Webhook endpoints, their delivery attempts and pulled events.
 *
 * Our design where the spec is open: list/read/delete live at `GET /webhooks`,
 * `GET /webhooks/{id}` and `DELETE /webhooks/{id}`; `PATCH` also takes `url` (push endpoints
 * only), `events` and `description`; a pull endpoint reports `mode: "pull"`.
 */

const FORBIDDEN_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

const EventTypeSchema = z.enum(webhookEventTypes, {
  error: `each event must be one of: ${webhookEventTypes.join(', ')}`,
});

const eventsField = z
  .array(EventTypeSchema, { error: 'events must be an array of event types' })
  .min(1, { error: 'events must name at least one event type' })
  .max(webhookEventTypes.length, { error: `events must name at most ${webhookEventTypes.length} event types` })
  .refine((list) => new Set(list).size === list.length, { error: 'events must not repeat an event type' })
  .openapi({
    description: `Event types to receive: ${webhookEventTypes.map((t) => `\`${t}\``).join(', ')}. ${paidWebhookEventTypes.map((t) => `\`${t}\``).join(' and ')} need a paid plan (\`402 upgrade_required\` on the free plan). \`webhook.test\` is sent on request whether listed or not.`,
    example: ['transfer.ready', 'transfer.downloaded'],
  });

const urlField = z
  .string({ error: 'url must be a string or null' })
  .trim()
  .min(1, { error: 'url must not be empty' })
  .max(2048, { error: 'url must be at most 2048 characters' })
  .openapi({
    description:
      'An `https` URL that receives signed POSTs. Private, loopback, link-local and reserved addresses (and host names that resolve to one) are refused: `400 invalid_request` with `details.reason` `forbidden_url` here, and again in the step that connects, on every delivery.',
    example: 'https://hooks.example.com/parcel',
  });

const descriptionField = z
  .string({ error: 'description must be a string' })
  .trim()
  .max(500, { error: 'description must be at most 500 characters' })
  .refine((v) => !FORBIDDEN_CHARACTERS.test(v), { error: 'description must not contain control characters' });

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: 'wh_5Yb2kQ8rN0xV3mT7cLp1' }),
    url: z.string().nullable().openapi({ description: 'Null for a pull endpoint.', example: 'https://hooks.example.com/parcel' }),
    mode: z.enum(['push', 'pull']).openapi({ description: '`push` when `url` is set; `pull` when events are kept for `GET /webhooks/{id}/events`.' }),
    description: z.string().openapi({ example: 'Order system' }),
    events: z.array(z.string()).openapi({ description: 'Subscribed event types.', example: ['transfer.ready'] }),
    enabled: z.boolean().openapi({ description: 'False while paused. A paused endpoint is matched to no new events.' }),
    disabledReason: z.string().nullable().openapi({
      description: 'Why the endpoint is paused: set when five deliveries in a row used up every retry (the owner is emailed once) or when it was paused by hand; null while enabled.',
      example: null,
    }),
    lastSuccessAt: z.iso.datetime().nullable().openapi({ description: 'The last 2xx answer.' }),
    lastFailureAt: z.iso.datetime().nullable().openapi({ description: 'The last failed attempt.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('WebhookEndpoint');

export const CreateWebhookRequestSchema = z
  .object({
    url: urlField.nullable().openapi({ description: 'An `https` URL for push delivery, or null for a pull endpoint.' }),
    events: eventsField,
    description: descriptionField.default('').openapi({ description: 'Up to 500 characters. Defaults to "".', example: 'Order system' }),
  })
  .openapi('CreateWebhookRequest');

export const UpdateWebhookRequestSchema = z
  .object({
    enabled: z.boolean({ error: 'enabled must be a boolean' }).optional().openapi({
      description: '`false` pauses the endpoint; `true` resumes it (also after an automatic pause) and clears `disabledReason`.',
    }),
    url: urlField.optional().openapi({ description: 'A new `https` URL. Push endpoints only: a pull endpoint cannot become a push one (create a new endpoint).' }),
    events: eventsField.optional(),
    description: descriptionField.optional().openapi({ description: 'Up to 500 characters.' }),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'give at least one of enabled, url, events, description' })
  .openapi('UpdateWebhookRequest');

export const WebhookResponseSchema = z.object({ webhook: WebhookEndpointSchema }).openapi('WebhookResponse');

export const WebhookWithSecretSchema = z
  .object({
    webhook: WebhookEndpointSchema,
    secret: z.string().openapi({
      description: 'The signing secret (`whsec_` and 43 characters). Shown only here; keep it to verify `Service-Signature`.',
      example: 'whsec_J1tq3w2n0v5XcN8yR6bZ4mK9pL7sD2fG5hA0eU3iO1k',
    }),
  })
  .openapi('WebhookWithSecret');

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookEndpointSchema) }).openapi('WebhookList');

export const WebhookDeliveryIdSchema = z
  .object({ deliveryId: z.string().openapi({ example: 'whd_8sK2mQ0vX1tB7nRw3LzP' }) })
  .openapi('WebhookDeliveryId');

export const WebhookDeliveryAttemptSchema = z
  .object({
    id: z.string().openapi({ description: 'This attempt.', example: 'wha_0c7Ls2Vq9nXb4Kt1mRz8' }),
    deliveryId: z.string().openapi({ description: 'The delivery (one event to this endpoint); the `Service-Delivery-Id` header.', example: 'whd_8sK2mQ0vX1tB7nRw3LzP' }),
    eventId: z.string().openapi({ description: 'The event `id`; the same on every retry and redelivery.', example: 'evt_3mQ8xK1vT7bN2cR9sLw4' }),
    eventType: z.string().openapi({ example: 'transfer.ready' }),
    attempt: z.number().int().openapi({ description: 'The attempt number within its delivery, from 1. Eight scheduled attempts; redeliveries continue the count.', example: 1 }),
    manual: z.boolean().openapi({ description: 'True for a redelivery requested with the retry operation; false for the scheduled attempts (a test event included).' }),
    attemptedAt: z.iso.datetime(),
    success: z.boolean().openapi({ description: 'A 2xx answer within 10 seconds.' }),
    statusCode: z.number().int().nullable().openapi({ description: 'The HTTP status of the answer; null when none came (time-out, refused connection, forbidden address).', example: 200 }),
    error: z.string().nullable().openapi({
      description: 'Why the attempt failed, null on success: the status, a redirect (never followed), a time-out, a connection error or a forbidden address.',
      example: null,
    }),
    durationMs: z.number().int().openapi({ description: 'From the start of the request to the end of the answer.', example: 84 }),
    nextRetryAt: z.iso.datetime().nullable().openapi({ description: 'When the next automatic attempt is due after this one failed; null when none is (success, or the retries are used up).' }),
    requestBody: z.string().openapi({ description: 'The exact body that was sent (the signed bytes).' }),
    responseBody: z.string().nullable().openapi({ description: 'The first 2 KiB of the answer, as text. Untrusted.' }),
  })
  .openapi('WebhookDeliveryAttempt');

export const WebhookDeliveryListQuerySchema = z.object({
  deliveryId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { name: 'deliveryId', in: 'query' }, description: 'Only the attempts of this delivery.' }),
});

export const WebhookDeliveryListSchema = z
  .object({
    attempts: z.array(WebhookDeliveryAttemptSchema).openapi({ description: 'The 100 most recent attempts, newest first.' }),
    pending: z
      .array(
        z.object({
          deliveryId: z.string(),
          eventId: z.string(),
          eventType: z.string(),
          createdAt: z.iso.datetime(),
          nextAttemptAt: z.iso.datetime(),
          attempts: z.number().int().openapi({ description: 'Attempts made so far.' }),
        }),
      )
      .openapi({ description: 'Deliveries still waiting for an attempt (the first, a retry or a redelivery), soonest first, at most 100.' }),
  })
  .openapi('WebhookDeliveryList');

export const PulledEventSchema = z
  .object({
    deliveryId: z.string().openapi({ example: 'whd_8sK2mQ0vX1tB7nRw3LzP' }),
    id: z.string().openapi({ description: 'The event id; deduplicate on it.', example: 'evt_3mQ8xK1vT7bN2cR9sLw4' }),
    type: z.string().openapi({ example: 'transfer.ready' }),
    createdAt: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'As in the pushed envelope of this type.' }),
  })
  .openapi('PulledEvent');

export const PullEventsQuerySchema = z.object({
  limit: limitParam(500, 100),
  cursor: cursorParam,
});

export const PullEventsResponseSchema = z
  .object({
    events: z.array(PulledEventSchema),
    nextCursor: z.string().openapi({
      description: 'Always present, even when nothing is new: pass it back as `cursor` to read what arrives after this page.',
    }),
    hasMore: z.boolean().openapi({ description: 'Whether more events are available right now (read again at once).' }),
  })
  .openapi('PulledEvents');

export const WebhookEventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_3mQ8xK1vT7bN2cR9sLw4' }),
    type: z.string().openapi({ example: 'transfer.ready' }),
    createdAt: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('WebhookEvent');

export const WebhookDeletedSchema = z.object({ deleted: z.literal(true) }).openapi('WebhookDeleted');

// ---------------------------------------------------------------------------------------------
// Event payloads, documented in the OpenAPI `webhooks` section (one entry per event type).

const TransferRefSchema = z.object({
  id: z.string().openapi({ example: 'tr_2bX9qLm4Vt0cR7sK1wNz' }),
  title: z.string().nullable().openapi({ description: 'Untrusted text typed by the sender.', example: 'Final cut' }),
  url: z.string().openapi({ example: 'https://files.example.com/t/Xk3v9QpL2m' }),
  expiresAt: z.iso.datetime(),
  downloadCount: z.number().int(),
});

const uploadSource = z.enum(['web', 'api', 'import', 'file_request']);
const UploaderSchema = z
  .object({ name: z.string(), email: z.string() })
  .openapi({ description: 'Typed by the person uploading: untrusted text, never to be rendered as HTML.' });
/**
 * A payload field that names someone by a shared component (Sender, FileAdder), or null. Written as a
 * union with null, not `.nullable()`: the generator writes the `webhooks` section before anything
 * else, and a `.nullable()` field it met first would become the component itself (nullable, with that
 * field's description in place of its own) and lose its description where it stands.
 */
const whoOrNull = <T extends z.ZodType>(who: T, description: string) => z.union([who, z.null()]).openapi({ description });

const CollectionFileRefSchema = z.object({ id: z.string(), name: z.string().openapi({ description: 'Untrusted text.' }), size: z.number().int(), folderId: z.string().nullable() });

export const webhookEventDataSchemas = {
  'transfer.ready': z.object({
    transfer: TransferRefSchema.extend({
      fileCount: z.number().int(),
      recipients: z.array(z.string()).openapi({ description: 'Recipient email addresses.' }),
      sentBy: whoOrNull(SenderSchema, 'Our addition: the member or API key that sent it; null for a transfer made before teams.'),
    }),
  }),
  'transfer.downloaded': z.object({
    transfer: TransferRefSchema,
    download: z.object({
      sessionId: z.string().openapi({ description: 'One visit; every file and resumed range of it counts once.' }),
      recipient: z.string().nullable().openapi({ description: 'The recipient email when the link came from their email; null otherwise.' }),
    }),
  }),
  'transfer.expiring': z.object({ transfer: TransferRefSchema }),
  'transfer.expired': z.object({
    transfer: z.object({ id: z.string() }),
    reason: z.enum(['expired', 'revoked']),
    revokedBy: whoOrNull(SenderSchema, 'Our addition: the member or API key that revoked it; null when `reason` is `expired` (and for a transfer revoked before this field was added).'),
  }),
  'collection.file_uploaded': z.object({
    collection: z.object({ id: z.string(), title: z.string() }),
    file: CollectionFileRefSchema,
    source: uploadSource,
    uploader: UploaderSchema.optional().openapi({ description: 'Present when an upload request brought the file. Untrusted text.' }),
    addedBy: whoOrNull(
      FileAdderSchema,
      'Our addition: who added the file, as the owner’s file listing shows it (`addedBy` of `GET /collections/{id}/files`): the member, the API key or the contributor guest, or for a file an upload request brought its uploader (untrusted text); null for a file added before teams.',
    ),
  }),
  'collection.file_reviewed': z.object({
    collection: z.object({ id: z.string(), title: z.string() }),
    file: CollectionFileRefSchema,
    review: z.object({
      state: z.enum(['approved', 'changes_requested']).nullable().openapi({ description: 'The decision; null when it was cleared.' }),
      by: z.object({ kind: z.enum(['member', 'key', 'guest']), email: z.string().nullable() }),
      at: z.iso.datetime(),
    }),
  }),
  'request.submitted': z.object({
    request: z.object({ id: z.string(), title: z.string(), collectionId: z.string() }),
    submission: z.object({
      id: z.string(),
      uploader: UploaderSchema,
      message: z.string().openapi({ description: 'Untrusted text typed by the uploader.' }),
      fileCount: z.number().int(),
      sizeBytes: z.number().int(),
    }),
    files: z.array(CollectionFileRefSchema).openapi({ description: 'Up to 500 files.' }),
  }),
  'webhook.test': z.object({ endpoint: z.object({ id: z.string() }), message: z.string() }),
} as const;

export const WebhookDeliveryHeadersSchema = z.object({
  'Service-Event-Id': z.string().openapi({ param: { name: 'Service-Event-Id', in: 'header' }, description: 'The event `id`, identical on every retry and redelivery: deduplicate on it.' }),
  'Service-Event-Type': z.string().openapi({ param: { name: 'Service-Event-Type', in: 'header' }, description: 'The event `type`.' }),
  'Service-Delivery-Id': z.string().openapi({ param: { name: 'Service-Delivery-Id', in: 'header' }, description: 'This event to this endpoint; the `deliveryId` of the delivery list and of a redelivery.' }),
  'Service-Signature': z.string().openapi({
    param: { name: 'Service-Signature', in: 'header' },
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: the HMAC, keyed with the endpoint secret, of `t`, a dot and the raw request body. Reject a `t` more than five minutes from now and compare in constant time.',
    example: 't=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  }),
});
