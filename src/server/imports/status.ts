import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ImportStatusSchema } from '../../contract/transfers.js';
import type { Caller } from '../core/caller.js';
import { notFound } from '../core/errors.js';
import { files } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { said } from '../core/sentences.js';

export type ImportStatus = z.infer<typeof ImportStatusSchema>;

/**
 * Where an import of the caller's workspace stands. `receivedBytes` is what storage has committed
 * (the running CRC's offset, which moves a part at a time); a file that was uploaded, not
 * imported, or another workspace's, is not found.
 */
export async function importStatus(services: Pick<Services, 'db'>, caller: Caller, fileId: string): Promise<ImportStatus> {
  const [row] = await services.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.workspaceId, caller.workspaceId), eq(files.source, 'import')));
  if (!row || !row.importUrl) throw notFound(said({ id: 'api.imports.importNotFound', defaultMessage: 'Import not found' }));
  const status = row.state === 'complete' ? 'ready' : row.state === 'failed' ? 'failed' : 'importing';
  return {
    fileId: row.id,
    name: row.name,
    // The importer reads a size of 0 as "not known yet" (imports/importer.ts); a complete file's is its length.
    size: status !== 'ready' && row.sizeBytes === 0 ? null : row.sizeBytes,
    receivedBytes: status === 'ready' ? row.sizeBytes : status === 'failed' ? 0 : row.crcOffset,
    source: row.importUrl,
    status,
    // While an import is retried, the reason of its last failed attempt; absent when there is none.
    ...(status !== 'ready' && row.error ? { error: row.error } : {}),
  };
}
