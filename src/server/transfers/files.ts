import { and, asc, eq, isNotNull, type SQL } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { files, transferFiles, type FileRecord } from '../db/schema/index.js';

/** A transfer's files: the stored file (the file engine's row) with what a transfer adds to it. */
export type TransferFile = FileRecord & {
  /** Folder path inside an uploaded folder, '/'-separated; null at top level. */
  path: string | null;
  sealedMeta: string | null;
  sealedThumb: string | null;
};

/** The columns of a TransferFile, for selects that join `files` to `transfer_files`. */
export const transferFileColumns = {
  id: files.id,
  workspaceId: files.workspaceId,
  ownerKind: files.ownerKind,
  ownerId: files.ownerId,
  seq: files.seq,
  name: files.name,
  sizeBytes: files.sizeBytes,
  mimeType: files.mimeType,
  source: files.source,
  importUrl: files.importUrl,
  state: files.state,
  error: files.error,
  storageKey: files.storageKey,
  crcState: files.crcState,
  crcOffset: files.crcOffset,
  crc32: files.crc32,
  scanResult: files.scanResult,
  thumbnailState: files.thumbnailState,
  thumbnailKey: files.thumbnailKey,
  createdAt: files.createdAt,
  completedAt: files.completedAt,
  path: transferFiles.path,
  sealedMeta: transferFiles.sealedMeta,
  sealedThumb: transferFiles.sealedThumb,
};

/** A transfer's files (all of them, or those matching `where`), in registration order. */
export function filesOfTransfer(db: Pick<Database, 'select'>, transferId: string, where?: SQL): Promise<TransferFile[]> {
  return db
    .select(transferFileColumns)
    .from(files)
    .innerJoin(transferFiles, eq(transferFiles.fileId, files.id))
    .where(and(eq(transferFiles.transferId, transferId), where))
    .orderBy(asc(files.seq));
}

/** The files a transfer offers for download: those whose upload completed (and so have their CRC-32). */
export const downloadableFiles = (db: Pick<Database, 'select'>, transferId: string) =>
  filesOfTransfer(db, transferId, and(eq(files.state, 'complete'), isNotNull(files.crc32)));

/** Registers a transfer's file: the stored file and the transfer's part of it, in one go. */
export async function insertTransferFiles(
  db: Pick<Database, 'insert'>,
  transfer: { id: string; workspaceId: string },
  rows: (Omit<typeof files.$inferInsert, 'workspaceId' | 'ownerKind' | 'ownerId'> & { path?: string | null; sealedMeta?: string | null; sealedThumb?: string | null })[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(files).values(rows.map(({ path: _path, sealedMeta: _meta, sealedThumb: _thumb, ...f }) => ({ ...f, workspaceId: transfer.workspaceId, ownerKind: 'transfer' as const, ownerId: transfer.id })));
  await db.insert(transferFiles).values(rows.map((r) => ({ fileId: r.id, transferId: transfer.id, path: r.path ?? null, sealedMeta: r.sealedMeta ?? null, sealedThumb: r.sealedThumb ?? null })));
}
