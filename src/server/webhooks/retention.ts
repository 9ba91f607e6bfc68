import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { PULL_RETENTION_DAYS } from '../../contract/webhook-events.js';
import type { Database } from '../db/connection.js';
import { webhookDeliveries } from '../db/schema/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Pull events are kept 30 days; finished push deliveries (and their attempts) as long, for the
 * dashboard. Pending ones are never swept: their last retry is under two days away.
 */
export async function sweepWebhookDeliveries(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - PULL_RETENTION_DAYS * DAY_MS);
  const deleted = await db
    .delete(webhookDeliveries)
    .where(
      and(
        lt(webhookDeliveries.createdAt, before),
        or(eq(webhookDeliveries.status, 'stored'), eq(webhookDeliveries.status, 'succeeded'), eq(webhookDeliveries.status, 'failed')),
        isNull(webhookDeliveries.leaseUntil),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}
