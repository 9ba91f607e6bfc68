import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/index.js';

export interface PulledEvent {
  deliveryId: string;
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * Reads a pull endpoint's feed after position `after`, oldest first. Reading consumes nothing.
 *
 * Positions are given here, not when events are written: with the endpoint row locked, every
 * committed event without one gets the next numbers. An event whose transaction commits later
 * can therefore only ever get a higher number than any position already handed out, so a reader
 * that follows `nextCursor` never skips one.
 */
export async function readPullFeed(db: Database, endpointId: string, after: number, limit: number): Promise<{ events: PulledEvent[]; last: number; hasMore: boolean }> {
  return db.transaction(async (tx) => {
    // NO KEY UPDATE: serialises readers of this feed, yet lets transactions that add deliveries (a
    // foreign-key share lock on the endpoint) proceed, so a reader and an expiring transfer cannot deadlock.
    const [ep] = await tx.select({ pullSeq: webhookEndpoints.pullSeq }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for('no key update');
    if (!ep) return { events: [], last: after, hasMore: false };
    const numbered = await tx.execute<{ seq: string }>(sql`
      WITH unnumbered AS (
        SELECT id, ${ep.pullSeq}::bigint + row_number() OVER (ORDER BY created_at, id) AS seq
        FROM ${webhookDeliveries} WHERE endpoint_id = ${endpointId} AND mode = 'pull' AND seq IS NULL
      )
      UPDATE ${webhookDeliveries} AS d SET seq = unnumbered.seq FROM unnumbered WHERE d.id = unnumbered.id
      RETURNING unnumbered.seq`);
    if (numbered.rows.length > 0) {
      const top = Math.max(...numbered.rows.map((r) => Number(r.seq)));
      await tx.update(webhookEndpoints).set({ pullSeq: top }).where(eq(webhookEndpoints.id, endpointId));
    }
    const rows = await tx
      .select({ id: webhookDeliveries.id, seq: webhookDeliveries.seq, body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.mode, 'pull'), gt(webhookDeliveries.seq, after)))
      .orderBy(asc(webhookDeliveries.seq))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const events = page.map((r) => {
      const envelope = JSON.parse(r.body) as Omit<PulledEvent, 'deliveryId'>;
      return { deliveryId: r.id, id: envelope.id, type: envelope.type, createdAt: envelope.createdAt, data: envelope.data };
    });
    return { events, last: page.length > 0 ? page[page.length - 1]!.seq! : after, hasMore: rows.length > limit };
  });
}
