import { and, eq, ne, sql } from 'drizzle-orm';
import { files, transfers, type FileRecord } from '../db/schema/index.js';
import { ownedBy } from '../files/stored.js';
import type { Services } from '../services.js';
import { whenImportsSettle } from '../transfers/send.js';
import { notifyFailedImport } from '../transfers/sender-mail.js';

/**
 * The most bytes an import may bring: for a transfer, what its ceiling leaves beside its other
 * files; for a collection, the paid plan's size of one transfer (collections are a paid feature).
 */
export async function importCeiling(services: Pick<Services, 'db' | 'config'>, file: FileRecord): Promise<number> {
  if (file.ownerKind !== 'transfer') return services.config.PAID_TRANSFER_MAX_BYTES;
  const [t] = await services.db.select({ maxBytes: transfers.maxBytes }).from(transfers).where(eq(transfers.id, file.ownerId));
  const [others] = await services.db
    .select({ total: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
    .from(files)
    .where(and(ownedBy('transfer', file.ownerId), ne(files.id, file.id)));
  return Math.max(0, (t?.maxBytes ?? 0) - Number(others?.total ?? 0));
}

/** An import failed for good: a transfer's workspace is mailed, and a sent transfer goes out with the files that arrived. */
export async function notifyImportFailed(services: Services, file: FileRecord) {
  if (file.ownerKind !== 'transfer') return;
  await notifyFailedImport(services, file);
  await whenImportsSettle(services, file.ownerId);
}
