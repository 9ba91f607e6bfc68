import { and, eq, inArray, sql } from 'drizzle-orm';
import { isPaidWebhookEvent, SUPERSEDED_BY_EXPIRY } from '../../contract/webhook-events.js';
import { newId } from '../core/secrets.js';
import { preparedQuery } from '../db/prepared.js';
import type { Tx } from '../db/connection.js';
import { webhookDeliveries, webhookEndpoints, workspaces } from '../db/schema/index.js';
import { effectivePlan, type Billing } from '../workspaces/plan.js';


/** What an event is about, by kind and id (a transfer or a collection; an upload request next). */
export interface EventSubject {
  kind: 'transfer' | 'collection';
  id: string;
}

export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** The exact bytes every endpoint receives (and a pull reader gets back as the same envelope). */
export const envelopeBody = (e: EventEnvelope) => JSON.stringify({ id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), data: e.data });

/**
 * Matches an event to the workspace's endpoints at the moment it happens, in the transaction
 * that records it: an endpoint created later never receives it, and one paused now gets nothing.
 * Paid event types reach nobody while the workspace's plan is free (including a lapsed plan).
 */
/** Asked for every event, in the transaction that emits it. */
const subscribedEndpoints = preparedQuery('subscribed_webhook_endpoints', (tx: Tx, name) =>
  tx
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, sql.placeholder('workspaceId')),
        eq(webhookEndpoints.enabled, true),
        sql`${sql.placeholder('type')} = any(${webhookEndpoints.events})`,
      ),
    )
    .prepare(name),
);

export async function fanOutEvent(tx: Tx, e: EventEnvelope & { workspaceId: string; subject: EventSubject | null }, now: Date, billing: Billing): Promise<number> {
  if (isPaidWebhookEvent(e.type)) {
    const [ws] = await tx.select({ plan: workspaces.plan, planUntil: workspaces.planUntil }).from(workspaces).where(eq(workspaces.id, e.workspaceId));
    if (!ws || effectivePlan(ws, now, billing) !== 'paid') return 0;
  }
  const endpoints = await subscribedEndpoints(tx).execute({ workspaceId: e.workspaceId, type: e.type });
  if (endpoints.length === 0) return 0;
  const body = envelopeBody(e);
  await tx.insert(webhookDeliveries).values(
    endpoints.map((ep) => deliveryRow({ endpointId: ep.id, push: ep.url !== null, workspaceId: e.workspaceId, event: e, body, subject: e.subject, now })),
  );
  return endpoints.length;
}

export function deliveryRow(d: { endpointId: string; push: boolean; workspaceId: string; event: EventEnvelope; body: string; subject: EventSubject | null; now: Date; force?: boolean }) {
  return {
    id: newId('whd'),
    endpointId: d.endpointId,
    workspaceId: d.workspaceId,
    mode: d.push ? ('push' as const) : ('pull' as const),
    eventId: d.event.id,
    eventType: d.event.type,
    eventCreatedAt: d.event.createdAt,
    body: d.body,
    subjectKind: d.subject?.kind ?? null,
    subjectId: d.subject?.id ?? null,
    status: d.push ? ('pending' as const) : ('stored' as const),
    nextAttemptAt: d.push ? d.now : null,
    force: d.force ?? false,
    createdAt: d.now,
  };
}

/**
 * When a subject ends (a transfer expires), its earlier ready, expiring and downloaded events leave
 * every pull feed (push deliveries already under way keep their history).
 */
export async function deleteSupersededPullEvents(tx: Tx, subject: EventSubject): Promise<void> {
  await tx
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.subjectKind, subject.kind), eq(webhookDeliveries.subjectId, subject.id), eq(webhookDeliveries.mode, 'pull'), inArray(webhookDeliveries.eventType, [...SUPERSEDED_BY_EXPIRY])));
}
