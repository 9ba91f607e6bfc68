import { newId } from '../auth/secrets.js';
import type { Database } from '../db/connection.js';
import { events } from '../db/schema.js';

export type EventType =
  | 'transfer.ready'
  | 'transfer.downloaded'
  | 'transfer.expiring'
  | 'transfer.expired'
  | 'collection.file_uploaded'
  | 'request.submitted'
  | 'webhook.test';

type Tx = Pick<Database, 'insert'>;

/**
 * Records an event with the spec's envelope. Called inside the transaction that made the change,
 * so an event exists exactly when its change does. (Delivery to webhook endpoints reads from here.)
 */
export async function emitEvent(
  tx: Tx,
  e: { workspaceId: string; type: EventType; data: Record<string, unknown>; transferId?: string | null; now: Date },
) {
  const [row] = await tx
    .insert(events)
    .values({ id: newId('evt'), workspaceId: e.workspaceId, type: e.type, data: e.data, transferId: e.transferId ?? null, createdAt: e.now })
    .returning();
  return row!;
}
