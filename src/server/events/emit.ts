import { SUPERSEDED_BY_EXPIRY, type WebhookEventType } from '../../contract/webhook-events.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { newId } from '../core/secrets.js';
import { preparedQuery } from '../db/prepared.js';
import { events } from '../db/schema/index.js';
import type { Tx } from '../db/connection.js';
import { deleteSupersededPullEvents, fanOutEvent, type EventSubject } from '../webhooks/fanout.js';
import type { Billing } from '../workspaces/plan.js';

export type EventType = WebhookEventType;
export type { EventSubject };

// Every event: built once (db/prepared.ts), run in the caller's transaction.
const insertEvent = preparedQuery('insert_event', (tx: Tx, name) =>
  tx
    .insert(events)
    .values({
      id: sql.placeholder('id'),
      workspaceId: sql.placeholder('workspaceId'),
      type: sql.placeholder('type'),
      data: sql.placeholder('data'),
      subjectKind: sql.placeholder('subjectKind'),
      subjectId: sql.placeholder('subjectId'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning()
    .prepare(name),
);

/**
 * Records an event with the spec's envelope and matches it to the workspace's webhook endpoints.
 * Called inside the transaction that made the change, so an event, and its deliveries, exist
 * exactly when its change does. The subject (kind and id) lets a later change find the events
 * about the same thing.
 */
export async function emitEvent(tx: Tx, e: { workspaceId: string; type: EventType; data: Record<string, unknown>; subject?: EventSubject | null; now: Date; billing: Billing }) {
  const subject = e.subject ?? null;
  const [row] = await insertEvent(tx).execute({
    id: newId('evt'),
    workspaceId: e.workspaceId,
    type: e.type,
    data: e.data,
    subjectKind: subject?.kind ?? null,
    subjectId: subject?.id ?? null,
    createdAt: e.now,
  });
  await fanOutEvent(tx, { id: row!.id, type: row!.type, createdAt: row!.createdAt, data: row!.data, workspaceId: e.workspaceId, subject }, e.now, e.billing);
  return row!;
}

/**
 * A subject ended (a transfer expired or was revoked): its earlier ready, expiring and downloaded
 * events go, from the workspace's event history and from every pull feed, in the caller's transaction.
 */
export async function retractSupersededEvents(tx: Tx, subject: EventSubject) {
  await tx.delete(events).where(and(eq(events.subjectKind, subject.kind), eq(events.subjectId, subject.id), inArray(events.type, [...SUPERSEDED_BY_EXPIRY])));
  await deleteSupersededPullEvents(tx, subject);
}
