import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { newId } from '../core/secrets.js';
import { downloadSessions, downloads, transferRecipients, transfers } from '../db/schema/index.js';
import { emitEvent } from '../events/emit.js';
import { notFound } from '../core/errors.js';
import type { Services } from '../services.js';
import { transferEventFields } from './lifecycle.js';
import { linkUnavailable } from '../sharing/availability.js';
import { unavailableReason } from './availability.js';
import { said } from '../core/sentences.js';

/**
 * Download receipts and the download limit.
 *
 * A page visit (download session) counts once, when its first download starts: the count goes up
 * by one in a conditional UPDATE that refuses past `maxDownloads`, so two visits racing for the
 * last download cannot both win. Each file (or the zip) gets one receipt per visit; a resumed or
 * repeated request of the same file in the same visit reuses it. Requests of one visit are
 * serialised by locking the session row, so they cannot create two receipts or count twice.
 */

export interface ReceiptTarget {
  sessionId: string;
  transferId: string;
  /** Null for the whole-transfer zip. */
  fileId: string | null;
  fileName: string | null;
}

/** The receipt for this visit and file, created (and the visit counted) if it is the first. */
export async function beginReceipt(services: Pick<Services, 'db' | 'clock' | 'config'>, target: ReceiptTarget): Promise<string> {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const [session] = await tx.select().from(downloadSessions).where(eq(downloadSessions.id, target.sessionId)).for('update');
    if (!session || session.transferId !== target.transferId) throw notFound(said({ id: 'api.transfers.downloadNotFound', defaultMessage: 'Download not found' }));
    const [existing] = await tx
      .select({ id: downloads.id })
      .from(downloads)
      .where(and(eq(downloads.sessionId, session.id), target.fileId === null ? isNull(downloads.fileId) : eq(downloads.fileId, target.fileId)))
      .limit(1);
    if (existing) return existing.id;

    let recipientEmail: string | null = null;
    if (session.recipientId) {
      const [r] = await tx.select({ email: transferRecipients.email }).from(transferRecipients).where(eq(transferRecipients.id, session.recipientId));
      recipientEmail = r?.email ?? null;
    }

    if (!session.countedAt) {
      const [t] = await tx
        .update(transfers)
        .set({ downloadCount: sql`${transfers.downloadCount} + 1` })
        .where(
          and(
            eq(transfers.id, target.transferId),
            eq(transfers.status, 'active'),
            gt(transfers.expiresAt, now),
            isNull(transfers.purgedAt),
            or(isNull(transfers.maxDownloads), lt(transfers.downloadCount, transfers.maxDownloads)),
          ),
        )
        .returning();
      if (!t) {
        const [current] = await tx.select().from(transfers).where(eq(transfers.id, target.transferId));
        if (!current) throw notFound(said({ id: 'api.transfers.downloadNotFound', defaultMessage: 'Download not found' }));
        throw linkUnavailable(unavailableReason(current, now, { countLimit: true }) ?? 'limit_reached');
      }
      await tx.update(downloadSessions).set({ countedAt: now }).where(eq(downloadSessions.id, session.id));
      if (session.recipientId) {
        await tx
          .update(transferRecipients)
          .set({ downloadedAt: now })
          .where(and(eq(transferRecipients.id, session.recipientId), isNull(transferRecipients.downloadedAt)));
      }
      await emitEvent(tx, {
        workspaceId: t.workspaceId,
        type: 'transfer.downloaded',
        subject: { kind: 'transfer', id: t.id },
        now, billing: services.config,
        data: {
          transfer: transferEventFields(t, services.config.PUBLIC_URL),
          download: { sessionId: session.id, recipient: recipientEmail },
        },
      });
    }

    const id = newId('dl');
    await tx.insert(downloads).values({
      id,
      workspaceId: session.workspaceId,
      transferId: target.transferId,
      sessionId: session.id,
      fileId: target.fileId,
      fileName: target.fileName,
      recipientEmail,
      createdAt: now,
    });
    return id;
  });
}

/** The last byte of the file (or zip) reached the client: the receipt is complete (once). */
export async function completeReceipt(services: Pick<Services, 'db' | 'clock'>, receiptId: string): Promise<void> {
  await services.db
    .update(downloads)
    .set({ completedAt: services.clock.now() })
    .where(and(eq(downloads.id, receiptId), isNull(downloads.completedAt)));
}
