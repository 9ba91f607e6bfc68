import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Transfer, TransferFile, TransferSummary } from '../../contract/transfers.js';
import type { Database } from '../db/connection.js';
import { files, transferFiles, transfers } from '../db/schema/index.js';
import { filesOfTransfer, type TransferFile as TransferFileRow } from './files.js';
import { recipientsOf, transferUrl } from './lifecycle.js';
import { notFound } from '../core/errors.js';
import { preparedQuery } from '../db/prepared.js';

export type TransferRow = typeof transfers.$inferSelect;

export function toTransferFile(f: TransferFileRow): TransferFile {
  return {
    id: f.id,
    name: f.name,
    sizeBytes: f.sizeBytes,
    mimeType: f.mimeType,
    path: f.path,
    scanResult: f.scanResult,
    scanSignature: f.scanResult === 'infected' ? f.scanSignature : null,
    crc32: f.crc32,
    state: f.state,
    error: f.state === 'failed' ? f.error : null,
    createdAt: f.createdAt.toISOString(),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The columns a transfer's summary shows: what a list reads, and no more (drizzle maps every column
 * of every row it reads, and a page holds up to 500 transfers).
 */
export const transferSummaryColumns = {
  id: transfers.id,
  slug: transfers.slug,
  title: transfers.title,
  status: transfers.status,
  e2ee: transfers.e2ee,
  downloadCount: transfers.downloadCount,
  maxDownloads: transfers.maxDownloads,
  readyAt: transfers.readyAt,
  finalizedAt: transfers.finalizedAt,
  expiresAt: transfers.expiresAt,
  createdAt: transfers.createdAt,
};
export type TransferSummaryRow = Pick<TransferRow, keyof typeof transferSummaryColumns>;

function common(t: TransferSummaryRow, publicUrl: string, recipients: string[], sizeBytes: number) {
  return {
    id: t.id,
    slug: t.slug,
    url: transferUrl(publicUrl, t.slug),
    title: t.title,
    status: t.status,
    sizeBytes,
    recipients,
    e2ee: t.e2ee,
    downloadCount: t.downloadCount,
    maxDownloads: t.maxDownloads,
    // Sent (the spec's `finalizedAt`) is when it went out, `ready_at`: at finalize, or when the last URL import landed.
    finalizedAt: iso(t.readyAt),
    sendRequestedAt: iso(t.finalizedAt),
    expiresAt: t.expiresAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
  };
}

// A page of transfers is passed as one array, so that the query's text stays the same.

const fileStatsOfTransfers = preparedQuery('file_stats_of_transfers', (db, name) =>
  db
    .select({
      transferId: transferFiles.transferId,
      n: count(),
      size: sql<string>`coalesce(sum(${files.sizeBytes}), 0)`,
      first: sql<string | null>`(array_agg(${files.name} ORDER BY ${files.seq}))[1]`,
    })
    .from(transferFiles)
    .innerJoin(files, eq(files.id, transferFiles.fileId))
    .where(sql`${transferFiles.transferId} = any(${sql.placeholder('transferIds')}::text[])`)
    .groupBy(transferFiles.transferId)
    .prepare(name),
);

const transferOfWorkspace = preparedQuery('transfer_of_workspace', (db, name) =>
  db
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, sql.placeholder('id')), eq(transfers.workspaceId, sql.placeholder('workspaceId'))))
    .limit(1)
    .prepare(name),
);

/** Every change to a transfer starts with this, in its transaction. */
const lockTransferOfWorkspace = preparedQuery('lock_transfer_of_workspace', (tx: Pick<Database, 'select'>, name) =>
  tx
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, sql.placeholder('id')), eq(transfers.workspaceId, sql.placeholder('workspaceId'))))
    .for('update')
    .prepare(name),
);


export async function loadTransfer(db: Database, publicUrl: string, t: TransferRow): Promise<Transfer> {
  const files = await filesOfTransfer(db, t.id);
  const recipients = (await recipientsOf(db, [t.id])).get(t.id) ?? [];
  return {
    ...common(t, publicUrl, recipients, files.reduce((s, f) => s + f.sizeBytes, 0)),
    fileCount: files.length,
    hasPassword: t.passwordHash !== null,
    message: t.message,
    notifications: { downloads: t.notifyDownloads, beforeExpiry: t.notifyBeforeExpiry },
    files: files.map(toTransferFile),
  };
}

/** Summaries for a page of transfers, with file counts, sizes and first file names in two queries. */
export async function loadSummaries(db: Database, publicUrl: string, rows: TransferSummaryRow[]): Promise<TransferSummary[]> {
  const ids = rows.map((t) => t.id);
  if (ids.length === 0) return [];
  const stats = await fileStatsOfTransfers(db).execute({ transferIds: ids });
  const byId = new Map(stats.map((s) => [s.transferId, s]));
  const recipients = await recipientsOf(db, ids);
  return rows.map((t) => {
    const s = byId.get(t.id);
    return {
      ...common(t, publicUrl, recipients.get(t.id) ?? [], Number(s?.size ?? 0)),
      fileCount: s?.n ?? 0,
      firstFileName: s?.first ?? null,
    };
  });
}

/**
 * The caller's transfer, locked for the rest of the transaction (changes to one transfer are
 * serialised), or 404: another workspace's id is simply not found.
 */
export async function lockOwnTransfer(tx: Pick<Database, 'select'>, workspaceId: string, id: string): Promise<TransferRow> {
  const [t] = await lockTransferOfWorkspace(tx).execute({ id, workspaceId });
  if (!t) throw notFound('Transfer');
  return t;
}

export async function findTransfer(db: Database, workspaceId: string, id: string) {
  const [t] = await transferOfWorkspace(db).execute({ id, workspaceId });
  return t ?? null;
}

export const newestFirst = [desc(transfers.createdAt), desc(transfers.id)] as const;
