import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import { files, uploadTokens, type FileOwnerKind, type FileRecord } from '../db/schema/index.js';
import type { Services } from '../services.js';

/** Queries and deletions over stored files that every owner shares. */

/** The files of one owner. */
export const ownedBy = (ownerKind: FileOwnerKind, ownerId: string) => and(eq(files.ownerKind, ownerKind), eq(files.ownerId, ownerId))!;

/**
 * Files whose bytes are all stored and whose CRC-32 is known, and that no virus scan found infected:
 * what an owner may offer for download (one waiting for its scan is offered, and served once clean).
 */
export const downloadable = and(eq(files.state, 'complete'), isNotNull(files.crc32), or(isNull(files.scanResult), ne(files.scanResult, 'infected')))!;
export const isDownloadable = (f: Pick<FileRecord, 'state' | 'crc32' | 'scanResult'>) => f.state === 'complete' && f.crc32 !== null && f.scanResult !== 'infected';

/**
 * The file may not be downloaded yet because its virus scan has not said `clean`: only when a
 * scanner is configured (without one, files are served unscanned and `scanResult` stays null).
 */
export const awaitingScan = (config: Pick<Services['config'], 'CLAMD_URL'>, f: Pick<FileRecord, 'scanResult'>) =>
  config.CLAMD_URL !== undefined && f.scanResult !== 'clean';

type DeleteServices = Pick<Services, 'storage' | 'log'>;

/** Deletes the bytes of these files and their previews from storage; a failure is logged, the rest go on. */
export async function deleteStoredBytes(services: DeleteServices, rows: Pick<FileRecord, 'id' | 'storageKey' | 'thumbnailKey'>[]): Promise<void> {
  for (const f of rows) {
    for (const key of f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey]) {
      await services.storage.delete(key).catch((err: unknown) => services.log.error({ err, fileId: f.id }, 'could not delete stored bytes'));
    }
  }
}

/** Deletes every stored byte of an owner's files (an ended transfer); the rows stay for its history. */
export async function purgeOwnerBytes(services: DeleteServices & Pick<Services, 'db'>, ownerKind: FileOwnerKind, ownerId: string): Promise<void> {
  const rows = await services.db
    .select({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey })
    .from(files)
    .where(ownedBy(ownerKind, ownerId));
  await deleteStoredBytes(services, rows);
}

/** An upload into an owner that never ends (a collection, a vault) is given up this long after it was registered and its last token lapsed. */
export const ABANDONED_UPLOAD_MS = 7 * 24 * 60 * 60 * 1000;

/** Owners that never end: nothing else would ever delete their unfinished uploads. */
const NEVER_ENDING_OWNERS: FileOwnerKind[] = ['collection', 'vault'];

/**
 * Deletes abandoned uploads into collections and vaults: registered more than a week ago, still
 * incomplete, with no upload token still valid (a client resuming renews its token). Without it
 * they would count toward the collection's size or the vault's quota forever.
 */
export async function sweepAbandonedUploads(services: DeleteServices & Pick<Services, 'db' | 'clock'>): Promise<number> {
  const registeredBefore = new Date(services.clock.now().getTime() - ABANDONED_UPLOAD_MS);
  return deleteUnresumableUploads(services, registeredBefore, inArray(files.ownerKind, NEVER_ENDING_OWNERS));
}

/**
 * Deletes the uploads matching `where` that were registered before `registeredBefore`, still have
 * no complete bytes, and that no upload token still valid could resume (a client resuming renews
 * its token), with their stored bytes. Imports are never matched: the importer owns them.
 */
export async function deleteUnresumableUploads(services: DeleteServices & Pick<Services, 'db' | 'clock'>, registeredBefore: Date, where: SQL): Promise<number> {
  const removed = await services.db
    .delete(files)
    .where(
      and(
        where,
        eq(files.state, 'uploading'),
        lt(files.createdAt, registeredBefore),
        notExists(
          services.db
            .select({ one: sql`1` })
            .from(uploadTokens)
            .where(and(eq(uploadTokens.fileId, files.id), gt(uploadTokens.expiresAt, services.clock.now()))),
        ),
      ),
    )
    .returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
  await deleteStoredBytes(services, removed);
  return removed.length;
}

/** Bytes without a row are left this long before they are deleted: a preview is written before its row names it. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes stored bytes that no file row names any more, untouched for an hour: rows are deleted
 * before their bytes (an upload still arriving must be refused first), so a crash in between, or an
 * upload created just as its draft was deleted, leaves bytes that nothing else would ever delete.
 */
export async function sweepOrphanedBytes(services: Pick<Services, 'db' | 'clock' | 'storage'>): Promise<number> {
  const before = new Date(services.clock.now().getTime() - ORPHAN_GRACE_MS);
  return services.storage.sweepUnreferenced(before, async (keys) => {
    // Storage keys are file ids (and `<id>_thumb` for previews): looked up by primary key first.
    const ids = [...new Set(keys.map((k) => k.replace(/_thumb$/, '')))];
    const rows = await services.db.select({ key: files.storageKey, thumb: files.thumbnailKey }).from(files).where(inArray(files.id, ids));
    const inUse = new Set(rows.flatMap((r) => (r.thumb ? [r.key, r.thumb] : [r.key])));
    // Whatever that did not find is asked for by key itself before it counts as unreferenced.
    const unknown = keys.filter((k) => !inUse.has(k));
    if (unknown.length > 0) {
      const named = await services.db
        .select({ key: files.storageKey, thumb: files.thumbnailKey })
        .from(files)
        .where(or(inArray(files.storageKey, unknown), inArray(files.thumbnailKey, unknown)));
      for (const r of named) for (const k of [r.key, r.thumb]) if (k) inUse.add(k);
    }
    return inUse;
  });
}
