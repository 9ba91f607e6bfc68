import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { preparedQuery } from '../db/prepared.js';
import type { Database } from '../db/connection.js';
import { files, transferFiles, type FileRecord } from '../db/schema/index.js';
import { downloadable } from '../files/stored.js';

/** A transfer's files: the stored file (the file engine's row) with what a transfer adds to it. */
export type TransferFile = FileRecord & {
  /** Folder path inside an uploaded folder, '/'-separated; null at top level. */
  path: string | null;
  sealedMeta: string | null;
  sealedThumb: string | null;
};

/** The columns of a TransferFile, for selects that join `files` to `transfer_files`. */
const transferFileColumns = {
  ...getTableColumns(files),
  path: transferFiles.path,
  sealedMeta: transferFiles.sealedMeta,
  sealedThumb: transferFiles.sealedThumb,
};

/** Read for every transfer the API answers with. */
const allFilesOf = preparedQuery('files_of_transfer', (db: Pick<Database, 'select'>, name) =>
  db
    .select(transferFileColumns)
    .from(files)
    .innerJoin(transferFiles, eq(transferFiles.fileId, files.id))
    .where(eq(transferFiles.transferId, sql.placeholder('transferId')))
    .orderBy(asc(files.seq))
    .prepare(name),
);

/** A transfer's files (all of them, or those matching `where`), in registration order. */
export function filesOfTransfer(db: Pick<Database, 'select'>, transferId: string, where?: SQL): Promise<TransferFile[]> {
  if (where === undefined) return allFilesOf(db).execute({ transferId });
  return db
    .select(transferFileColumns)
    .from(files)
    .innerJoin(transferFiles, eq(transferFiles.fileId, files.id))
    .where(and(eq(transferFiles.transferId, transferId), where))
    .orderBy(asc(files.seq));
}

/** The files a transfer offers for download: those whose upload completed (and so have their CRC-32). */
export const downloadableFiles = (db: Pick<Database, 'select'>, transferId: string) => filesOfTransfer(db, transferId, downloadable);
