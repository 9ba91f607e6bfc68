import { and, eq, ne, sql } from 'drizzle-orm';
import { preparedQuery } from '../db/prepared.js';
import type { Database } from '../db/connection.js';
import { ApiError, notFound } from '../core/errors.js';
import { downloadSessions, files, transfers } from '../db/schema/index.js';
import { ZIP } from '../downloads/links.js';
import { ownedBy } from '../files/stored.js';
import type { FileOwner, OpenedDownload } from '../files/owners.js';
import { isWorkspaceActive } from '../workspaces/active.js';
import { linkUnavailable } from '../sharing/availability.js';
import { assertAvailable } from './availability.js';
import { transferZipContent } from './download-links.js';
import { downloadableFiles, filesOfTransfer } from './files.js';
import { markReadyIfComplete } from './lifecycle.js';
import { whenImportsSettle } from './send.js';
import { beginReceipt, completeReceipt } from './receipts.js';
import { notifyDownload, notifyFailedImport, notifyInfectedTransfer } from './sender-mail.js';
import { endTransfer } from './end.js';
import { deleteStoredBytes } from '../files/stored.js';
import type { Services } from '../services.js';
import { said } from '../core/sentences.js';

/**
 * Whether the transfer is still an active draft. Decided under the transfer's row lock, which
 * finalize holds while it checks for infected files: the file's verdict is committed before this
 * runs, so a finalize either saw it (and refused) or committed first (and this finds it sent).
 */
async function isDraft(services: Services, transferId: string): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    const [t] = await tx
      .select({ status: transfers.status, finalizedAt: transfers.finalizedAt })
      .from(transfers)
      .where(eq(transfers.id, transferId))
      .for('update');
    return t !== undefined && t.status === 'active' && t.finalizedAt === null;
  });
}

/** Read by every tus request of a transfer's upload. */
const transferStatusOf = preparedQuery('transfer_status_of', (db: Pick<Database, 'select'>, name) =>
  db
    .select({ status: transfers.status, purgedAt: transfers.purgedAt, expiresAt: transfers.expiresAt, e2ee: transfers.e2ee })
    .from(transfers)
    .where(eq(transfers.id, sql.placeholder('transferId')))
    .prepare(name),
);

/**
 * Transfers as owners of files: uploads are taken while the transfer is active and not purged;
 * a completed file may make it ready (`transfer.ready`); its links follow its availability
 * (expiry, revocation, the download limit, a suspended workspace) and a recipient's visit gets a
 * receipt per file, counted on its first download.
 */
export const transferFileOwner: FileOwner = {
  kind: 'transfer',

  async status(db, transferId) {
    const [t] = await transferStatusOf(db).execute({ transferId });
    if (!t) return null;
    return { live: t.status === 'active' && t.purgedAt === null, keptUntil: t.expiresAt, encrypted: t.e2ee };
  },

  async fileCompleted(services, file) {
    // An import landing may be the last thing a sent transfer waited for: then it goes out.
    if (file.source === 'import') await whenImportsSettle(services, file.ownerId);
    else await markReadyIfComplete(services, file.ownerId);
  },

  async fileInfected(services, file, signature) {
    // A draft goes on: the file stays, marked (finalize refuses while it is there), for its sender to remove.
    if (await isDraft(services, file.ownerId)) {
      await deleteStoredBytes(services, [file]);
      await notifyInfectedTransfer(services, file, signature, 'draft');
      return;
    }
    // A sent transfer is blocked whole (status `infected`, every file's bytes deleted), once.
    if (await endTransfer(services, file.ownerId, 'infected')) await notifyInfectedTransfer(services, file, signature, 'blocked');
    else await deleteStoredBytes(services, [file]);
  },

  // What the transfer's ceiling leaves beside its other files.
  async importCeiling(services, file) {
    const [t] = await services.db.select({ maxBytes: transfers.maxBytes }).from(transfers).where(eq(transfers.id, file.ownerId));
    const [others] = await services.db
      .select({ total: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
      .from(files)
      .where(and(ownedBy('transfer', file.ownerId), ne(files.id, file.id)));
    return Math.max(0, (t?.maxBytes ?? 0) - Number(others?.total ?? 0));
  },

  // The workspace is mailed, and a transfer whose send was requested goes out with the files that arrived.
  async importFailed(services, file) {
    await notifyFailedImport(services, file);
    await whenImportsSettle(services, file.ownerId);
  },

  // The owner's own previews, like the owner's download links, ignore the download limit.
  async assertViewable(services, transferId, _fileId, byManager) {
    const [t] = await services.db.select().from(transfers).where(eq(transfers.id, transferId));
    if (!t) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
    if (!(await isWorkspaceActive(services.db, t.workspaceId))) throw linkUnavailable('suspended');
    assertAvailable(t, services.clock.now(), { countLimit: !byManager });
  },

  async openDownload(services, grant) {
    const { db, clock } = services;
    const now = clock.now();
    const [t] = await db.select().from(transfers).where(eq(transfers.id, grant.ownerId));
    // A visit exists only for a transfer that went out (ready_at); the owner's own links need none.
    if (!t || (grant.sessionId !== null && t.readyAt === null)) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
    let session: typeof downloadSessions.$inferSelect | null = null;
    if (grant.sessionId !== null) {
      [session = null] = await db.select().from(downloadSessions).where(eq(downloadSessions.id, grant.sessionId));
      if (!session || session.transferId !== t.id) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
    }
    if (!(await isWorkspaceActive(db, t.workspaceId))) throw linkUnavailable('suspended');
    // A visit that already counted may finish its downloads after the limit is reached.
    assertAvailable(t, now, { countLimit: session !== null && session.countedAt === null });
    if (session && session.expiresAt.getTime() <= now.getTime()) throw linkUnavailable('expired');

    let target: OpenedDownload['target'];
    if (grant.fileId === ZIP) {
      if (t.e2ee) throw new ApiError('e2ee_unsupported', said({ id: 'api.transfers.e2eeNoZip', defaultMessage: 'An end-to-end encrypted transfer cannot be downloaded as a zip.' }));
      target = { kind: 'zip', ...transferZipContent(t, await downloadableFiles(db, t.id)) };
    } else {
      const [file] = await filesOfTransfer(db, t.id, eq(files.id, grant.fileId));
      if (!file) throw notFound(said({ id: 'api.transfers.fileNotFound', defaultMessage: 'File not found' }));
      target = { kind: 'file', file };
    }

    return {
      target,
      encrypted: t.e2ee,
      begin: async () => {
        if (!session) return null;
        const file = target.kind === 'file' ? target.file : null;
        const receiptId = await beginReceipt(services, { sessionId: session.id, transferId: t.id, fileId: file?.id ?? null, fileName: file?.name ?? null });
        // The visit's first download: the sender hears of it now, not on the next sweep (which catches what this misses).
        if (session.countedAt === null) {
          void notifyDownload(services, session.id).catch((err: unknown) => services.log.error({ err, transferId: t.id }, 'download notification failed'));
        }
        return () => completeReceipt(services, receiptId);
      },
    };
  },
};
