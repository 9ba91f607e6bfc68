import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { workspaces } from './accounts.js';

// Events, and the webhook endpoints and deliveries that carry them out.

/**
 * Events with the spec's envelope (`id`, `type`, `createdAt`, `data`). The subject (its kind and
 * id: a transfer today, a collection or an upload request next) lets `transfer.expired` delete the
 * transfer's earlier ready, expiring and downloaded events, and any later kind do the same.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    subjectKind: text('subject_kind'),
    subjectId: text('subject_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('events_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id), index('events_subject_idx').on(t.subjectKind, t.subjectId)],
);

/**
 * Webhook endpoints. `url` null is a pull endpoint. The signing secret has to be kept usable (an
 * HMAC key cannot be a hash); it is never logged and never returned after creation or rotation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url'),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    signingSecret: text('signing_secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** Deliveries in a row that used up every retry; five pause the endpoint. Any success resets it. */
    exhaustedInRow: integer('exhausted_in_row').notNull().default(0),
    /** The highest `seq` given to this pull endpoint's events; never goes down, even when events are deleted. */
    pullSeq: bigint('pull_seq', { mode: 'number' }).notNull().default(0),
    lastSuccessAt: ts('last_success_at'),
    lastFailureAt: ts('last_failure_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint. Push deliveries are a small state machine the dispatcher claims
 * with FOR UPDATE SKIP LOCKED and a lease; pull deliveries are the endpoint's readable feed.
 * The body is stored as sent, so a redelivery carries the same event id and bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    mode: text('mode', { enum: ['push', 'pull'] }).notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    eventCreatedAt: ts('event_created_at').notNull(),
    /** The exact JSON body (the signed bytes). */
    body: text('body').notNull(),
    /** The event's subject, as on `events`. */
    subjectKind: text('subject_kind'),
    subjectId: text('subject_id'),
    /** Push: `pending` until a 2xx (`succeeded`) or every scheduled attempt failed (`failed`). Pull: `stored`. */
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'stored'] }).notNull(),
    /** Attempts made, redeliveries included; `scheduledAttempts` counts only the automatic ones. */
    attempts: integer('attempts').notNull().default(0),
    scheduledAttempts: integer('scheduled_attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    /** A dispatcher holds the delivery until then; after a crash another one takes it over. */
    leaseUntil: ts('lease_until'),
    /** The next scheduled attempt runs even while the endpoint is paused (a requested test). */
    force: boolean('force').notNull().default(false),
    /**
     * Redeliveries requested and not yet attempted: one attempt now, whatever the status. A count,
     * not a flag, so that a request made while an attempt is on the wire is not cleared by it.
     */
    redeliveryRequests: integer('redelivery_requests').notNull().default(0),
    /**
     * Pull order, given at read time with the endpoint row locked, in commit order: a reader can
     * never be handed a cursor past an event that commits later.
     */
    seq: bigint('seq', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_redelivery_idx').on(t.id).where(sql`${t.redeliveryRequests} > 0`),
    index('webhook_deliveries_endpoint_seq_idx').on(t.endpointId, t.seq),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_subject_idx').on(t.subjectKind, t.subjectId),
  ],
);

/** Each HTTP attempt of a push delivery, for the dashboard and `GET /webhooks/{id}/deliveries`. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    manual: boolean('manual').notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    success: boolean('success').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    nextRetryAt: ts('next_retry_at'),
    responseBody: text('response_body'),
  },
  (t) => [index('webhook_attempts_endpoint_idx').on(t.endpointId, t.attemptedAt), index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);
