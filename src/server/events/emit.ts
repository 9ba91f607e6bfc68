import { newId } from '../core/secrets.js';
import { events } from '../db/schema.js';
import { fanOutEvent, type Tx } from '../webhooks/fanout.js';
import type { WebhookEventType } from '../../contract/webhook-events.js';

export type EventType = WebhookEventType;

/**
 * Records an event with the spec's envelope and matches it to the workspace's webhook endpoints.
 * Called inside the transaction that made the change, so an event, and its deliveries, exist
 * exactly when its change does.
 */
export async function emitEvent(
  tx: Tx,
  e: { workspaceId: string; type: EventType; data: Record<string, unknown>; transferId?: string | null; now: Date },
) {
  const [row] = await tx
    .insert(events)
    .values({ id: newId('evt'), workspaceId: e.workspaceId, type: e.type, data: e.data, transferId: e.transferId ?? null, createdAt: e.now })
    .returning();
  await fanOutEvent(tx, { id: row!.id, type: row!.type, createdAt: row!.createdAt, data: row!.data, workspaceId: e.workspaceId, transferId: e.transferId ?? null }, e.now);
  return row!;
}
