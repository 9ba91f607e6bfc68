import { callerActor, recordActivity } from '../activity/activity.js';
import { and, asc, desc, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CreateWebhookRequestSchema, UpdateWebhookRequestSchema, WebhookDeliveryListSchema } from '../../contract/webhooks.js';
import type { Caller } from '../core/caller.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, workspaces } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { assertBelowEndpointLimit, assertDeliverableUrl, assertEventsAllowed, loadEndpoint, toWebhook, webhookNotFound } from './endpoints.js';
import { deliveryRow, envelopeBody } from './fanout.js';
import { readPullFeed } from './pull.js';
import { newWebhookSecret, sealSigningSecret } from './signing.js';
import { said } from '../core/sentences.js';

/**
 * Webhook endpoints and their deliveries: the operations the API, the dashboard and the MCP server
 * call, as plain functions of the services, the caller and the parsed input. Every lookup is by id
 * and workspace together.
 */

export type CreateWebhookInput = z.output<typeof CreateWebhookRequestSchema>;
export type UpdateWebhookInput = z.output<typeof UpdateWebhookRequestSchema>;

/** Why an endpoint that its owner paused is paused. */
export const PAUSED_BY_REQUEST = 'Paused by request.';

/** Attempts and pending deliveries listed at most. */
const LISTED = 100;

const byId = (caller: Caller, id: string) => and(eq(webhookEndpoints.workspaceId, caller.workspaceId), eq(webhookEndpoints.id, id));

export async function listWebhooks(services: Pick<Services, 'db'>, caller: Caller) {
  const rows = await services.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, caller.workspaceId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return rows.map(toWebhook);
}

export async function getWebhook(services: Pick<Services, 'db'>, caller: Caller, id: string) {
  return toWebhook(await loadEndpoint(services.db, caller.workspaceId, id));
}

/** A new endpoint (a push URL, checked against the SSRF policy, or `null` for a pull feed) and its signing secret, shown once. */
export async function createWebhook(services: Pick<Services, 'db' | 'clock' | 'config' | 'outbound' | 'webhookSecretKey'>, caller: Caller, input: CreateWebhookInput) {
  assertEventsAllowed(caller.plan, input.events);
  const url = input.url === null ? null : await assertDeliverableUrl(services, input.url);
  const secret = newWebhookSecret();
  const id = newId('wh');
  const now = services.clock.now();
  const row = await services.db.transaction(async (tx) => {
    // Holding the workspace row makes "count, then insert" one step for concurrent creates.
    await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, caller.workspaceId)).for('update');
    await assertBelowEndpointLimit(tx, caller.workspaceId, caller.plan);
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        workspaceId: caller.workspaceId,
        url,
        description: input.description,
        events: input.events,
        signingSecret: sealSigningSecret(services.webhookSecretKey, id, secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordActivity(tx, caller.workspaceId, now, { kind: 'webhook.created', actor: callerActor(caller), subject: webhookSubject(created!), detail: { events: input.events.join(' ') } });
    return created!;
  });
  return { webhook: toWebhook(row), secret };
}

/** Changes what is given: URL, events, description, or pausing and resuming (which restarts the failure count). */
export async function updateWebhook(services: Pick<Services, 'db' | 'clock' | 'config' | 'outbound'>, caller: Caller, id: string, input: UpdateWebhookInput) {
  const current = await loadEndpoint(services.db, caller.workspaceId, id);
  if (input.url !== undefined && current.url === null) {
    throw invalidField('body', 'url', said({ id: 'api.webhooks.pullEndpointNoUrl', defaultMessage: 'a pull endpoint has no URL; create a push endpoint instead' }));
  }
  if (input.events) assertEventsAllowed(caller.plan, input.events);
  const url = input.url === undefined ? undefined : await assertDeliverableUrl(services, input.url);
  const [row] = await services.db
    .update(webhookEndpoints)
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(input.events ? { events: input.events } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      // Resuming restarts the count; an `enabled: true` sent to an enabled endpoint changes nothing.
      ...(input.enabled === true && !current.enabled ? { enabled: true, disabledReason: null, exhaustedInRow: 0 } : {}),
      ...(input.enabled === false && current.enabled ? { enabled: false, disabledReason: PAUSED_BY_REQUEST } : {}),
      updatedAt: services.clock.now(),
    })
    .where(byId(caller, id))
    .returning();
  if (!row) throw webhookNotFound();
  return toWebhook(row);
}

export async function deleteWebhook(services: Pick<Services, 'db' | 'clock'>, caller: Caller, id: string): Promise<{ deleted: true }> {
  await services.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(webhookEndpoints).where(byId(caller, id)).returning();
    if (!deleted) throw webhookNotFound();
    await recordActivity(tx, caller.workspaceId, services.clock.now(), { kind: 'webhook.deleted', actor: callerActor(caller), subject: webhookSubject(deleted) });
  });
  return { deleted: true };
}

/**
 * How the activity log names an endpoint: its description, else only its URL's host (a URL's path
 * and query are often the secret, as a chat service's incoming-webhook URL is), else "Pull feed".
 */
function webhookSubject(row: { id: string; url: string | null; description: string }) {
  const name = row.description || (row.url === null ? 'Pull feed' : new URL(row.url).host);
  return { type: 'webhook', id: row.id, name };
}

/** A new signing secret, shown once; the old one stops signing at once. */
export async function rotateWebhookSecret(services: Pick<Services, 'db' | 'clock' | 'webhookSecretKey'>, caller: Caller, id: string) {
  const secret = newWebhookSecret();
  const [row] = await services.db
    .update(webhookEndpoints)
    .set({ signingSecret: sealSigningSecret(services.webhookSecretKey, id, secret), updatedAt: services.clock.now() })
    .where(byId(caller, id))
    .returning();
  if (!row) throw webhookNotFound();
  return { webhook: toWebhook(row), secret };
}

/** Asks for one more attempt of a push delivery now, whatever its state. */
export async function redeliver(services: Pick<Services, 'db'>, caller: Caller, id: string, deliveryId: string): Promise<{ deliveryId: string }> {
  const ep = await loadEndpoint(services.db, caller.workspaceId, id);
  if (ep.url === null) throw new ApiError('conflict', said({ id: 'api.webhooks.pullEndpointNoDeliveries', defaultMessage: 'A pull endpoint has no deliveries to send again.' }), { reason: 'pull_endpoint' });
  const [row] = await services.db
    .update(webhookDeliveries)
    .set({ redeliveryRequests: sql`${webhookDeliveries.redeliveryRequests} + 1` })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, ep.id), eq(webhookDeliveries.mode, 'push')))
    .returning({ id: webhookDeliveries.id });
  if (!row) throw notFound(said({ id: 'api.webhooks.deliveryNotFound', defaultMessage: 'Delivery not found' }));
  return { deliveryId: row.id };
}

/** A `webhook.test` event for this endpoint alone, sent even while it is paused. */
export async function sendTestEvent(services: Pick<Services, 'db' | 'clock'>, caller: Caller, id: string): Promise<{ deliveryId: string }> {
  const ep = await loadEndpoint(services.db, caller.workspaceId, id);
  const now = services.clock.now();
  const event = { id: newId('evt'), type: 'webhook.test', createdAt: now, data: { endpoint: { id: ep.id }, message: 'This is a test event. Your endpoint is receiving webhooks.' } };
  const row = deliveryRow({ endpointId: ep.id, push: ep.url !== null, workspaceId: ep.workspaceId, event, body: envelopeBody(event), subject: null, now, force: true });
  await services.db.insert(webhookDeliveries).values(row);
  return { deliveryId: row.id };
}

/** The endpoint's latest attempts and the deliveries still due (all of them, or one delivery's). */
export async function listDeliveries(
  services: Pick<Services, 'db' | 'clock'>,
  caller: Caller,
  id: string,
  deliveryId?: string,
): Promise<z.output<typeof WebhookDeliveryListSchema>> {
  const { db } = services;
  const ep = await loadEndpoint(db, caller.workspaceId, id);
  const now = services.clock.now();
  const oneDelivery: SQL[] = deliveryId ? [eq(webhookDeliveries.id, deliveryId)] : [];
  const attempts = await db
    .select({ a: webhookAttempts, eventId: webhookDeliveries.eventId, eventType: webhookDeliveries.eventType, body: webhookDeliveries.body })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(and(eq(webhookAttempts.endpointId, ep.id), ...oneDelivery))
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.attempt))
    .limit(LISTED);
  const pending = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, ep.id),
        eq(webhookDeliveries.mode, 'push'),
        or(eq(webhookDeliveries.status, 'pending'), gt(webhookDeliveries.redeliveryRequests, 0)),
        ...oneDelivery,
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(LISTED);
  return {
    attempts: attempts.map(({ a, eventId, eventType, body }) => ({
      id: a.id,
      deliveryId: a.deliveryId,
      eventId,
      eventType,
      attempt: a.attempt,
      manual: a.manual,
      attemptedAt: a.attemptedAt.toISOString(),
      success: a.success,
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
      nextRetryAt: a.nextRetryAt?.toISOString() ?? null,
      requestBody: body,
      responseBody: a.responseBody,
    })),
    pending: pending.map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      eventType: d.eventType,
      createdAt: d.createdAt.toISOString(),
      // A requested redelivery is due at once, before its scheduled retry.
      nextAttemptAt: (d.redeliveryRequests > 0 || !d.nextAttemptAt ? now : d.nextAttemptAt).toISOString(),
      attempts: d.attempts,
    })),
  };
}

/** A pull endpoint's events after the cursor (from the start without one), oldest first; reading consumes nothing. */
export async function readEventFeed(services: Pick<Services, 'db' | 'cursorKey'>, caller: Caller, id: string, cursor: string | undefined, limit: number) {
  const ep = await loadEndpoint(services.db, caller.workspaceId, id);
  if (ep.url !== null) throw new ApiError('conflict', said({ id: 'api.webhooks.pushEndpointNoEvent', defaultMessage: 'A push endpoint has no event feed to read; its events are delivered.' }), { reason: 'push_endpoint' });
  const list = `webhook-events:${ep.id}`;
  const position = decodeCursor(services.cursorKey, list, caller.workspaceId, cursor);
  // Signed, so it holds exactly the position this list wrote into it.
  const after = position ? Number(position[0]) : 0;
  const page = await readPullFeed(services.db, ep.id, after, limit);
  return { events: page.events, nextCursor: encodeCursor(services.cursorKey, list, caller.workspaceId, [page.last]), hasMore: page.hasMore };
}
