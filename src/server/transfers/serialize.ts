import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Sender, Transfer, TransferFile, TransferSummary } from '../../contract/transfers.js';
import type { Database } from '../db/connection.js';
import { files, transferFileNames, transferFiles, transferRecipients, transferSizeBytes, transfers } from '../db/schema/index.js';
import { creatorOf } from '../workspaces/creators.js';
import { filesOfTransfer, type TransferFile as TransferFileRow } from './files.js';
import { recipientLanguagesOf, recipientsOf, transferUrl } from './lifecycle.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Caller } from '../core/caller.js';
import { preparedQuery } from '../db/prepared.js';
import { said } from '../core/sentences.js';

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

/** A timestamp as `toISOString()` writes it (milliseconds, UTC, both truncate the microseconds). */
const isoText = (column: PgColumn) => sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Who sent the transfer, as the API shows it (contract: SenderSchema): its creator. */
const senderOfTransfer = creatorOf(transfers);

/** The sender of one transfer (after a change, when the caller is not it). */
export async function senderOf(db: Pick<Database, 'select'>, t: Pick<TransferRow, 'id' | 'createdBy' | 'createdByKey'>): Promise<Sender | null> {
  if (t.createdBy === null && t.createdByKey === null) return null;
  const [row] = await db.select({ sentBy: senderOfTransfer }).from(transfers).where(eq(transfers.id, t.id));
  return row?.sentBy ?? null;
}

/**
 * The columns a transfer's summary shows: what a list reads, and no more (drizzle maps every column
 * of every row it reads, and a page holds up to 500 transfers). Its files' count, size and first
 * name and its recipients come with each row: the size and the names are kept on the transfer by
 * the database (migration 0017), the rest are index look-ups; so a page is one statement.
 */
export const transferSummaryColumns = {
  id: transfers.id,
  slug: transfers.slug,
  title: transfers.title,
  status: transfers.status,
  e2ee: transfers.e2ee,
  downloadCount: transfers.downloadCount,
  maxDownloads: transfers.maxDownloads,
  // As the API writes them, by the database: a page of 500 would otherwise parse 2,000 dates and print them again.
  readyAt: isoText(transfers.readyAt),
  finalizedAt: isoText(transfers.finalizedAt),
  expiresAt: isoText(transfers.expiresAt) as SQL<string>,
  createdAt: isoText(transfers.createdAt) as SQL<string>,
  sizeBytes: sql<number>`${transferSizeBytes}`.mapWith(Number),
  // Written out: in a select from one table drizzle drops the table from the columns it renders,
  // which would make `owner_id = id` compare a file with itself.
  fileCount: sql<number>`(select count(*) from "files" where "files"."owner_kind" = 'transfer' and "files"."owner_id" = "transfers"."id")`.mapWith(Number),
  // Names hold no line break (contract/files.ts): the first line is the first file's name.
  firstFileName: sql<string | null>`nullif(split_part(${transferFileNames}, E'\n', 1), '')`,
  // In the order recipientsOf gives them.
  recipients: sql<string[]>`array(select "r"."email" from "transfer_recipients" as "r" where "r"."transfer_id" = "transfers"."id" order by "r"."created_at", "r"."email")`,
  sentBy: senderOfTransfer,
};
type TransferSummaryRow = Pick<TransferRow, 'id' | 'slug' | 'title' | 'status' | 'e2ee' | 'downloadCount' | 'maxDownloads'> & {
  readyAt: string | null;
  finalizedAt: string | null;
  expiresAt: string;
  createdAt: string;
  sizeBytes: number;
  fileCount: number;
  firstFileName: string | null;
  recipients: string[];
  sentBy: Sender | null;
};

/** What a summary and the full view share, from a row whose times are ISO text already. */
function common(t: Omit<TransferSummaryRow, 'fileCount' | 'firstFileName'>, publicUrl: string) {
  return {
    id: t.id,
    slug: t.slug,
    url: transferUrl(publicUrl, t.slug),
    title: t.title,
    status: t.status,
    sizeBytes: t.sizeBytes,
    recipients: t.recipients,
    e2ee: t.e2ee,
    downloadCount: t.downloadCount,
    maxDownloads: t.maxDownloads,
    // Sent (the spec's `finalizedAt`) is when it went out, `ready_at`: at finalize, or when the last URL import landed.
    finalizedAt: t.readyAt,
    sendRequestedAt: t.finalizedAt,
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    sentBy: t.sentBy,
  };
}

const transferOfWorkspace = preparedQuery('transfer_of_workspace', (db, name) =>
  db
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, sql.placeholder('id')), eq(transfers.workspaceId, sql.placeholder('workspaceId'))))
    .limit(1)
    .prepare(name),
);

/**
 * A transfer's files as the API shows them (toTransferFile's shape, in registration order), built
 * by PostgreSQL inside the statement that reads the transfer: GET /transfers/{id} is one round trip.
 */
const shownFilesOfTransfer = sql<TransferFile[]>`coalesce((
  select json_agg(json_build_object(
    'id', f.id, 'name', f.name, 'sizeBytes', f.size_bytes, 'mimeType', f.mime_type, 'path', tf.path,
    'scanResult', f.scan_result, 'scanSignature', case when f.scan_result = 'infected' then f.scan_signature end,
    'crc32', f.crc32, 'state', f.state, 'error', case when f.state = 'failed' then f.error end,
    'createdAt', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) order by f.seq)
  from ${files} f join ${transferFiles} tf on tf.file_id = f.id
  where tf.transfer_id = ${transfers}.${sql.identifier('id')}), '[]'::json)`; // qualified: drizzle leaves a one-table select's columns bare

/** The languages chosen for the transfer's recipients, as recipientLanguagesOf gives them. */
const recipientLanguagesOfTransfer = sql<Record<string, string>>`coalesce((
  select json_object_agg(r.email, r.language order by r.email) from ${transferRecipients} r
  where r.transfer_id = ${transfers}.${sql.identifier('id')} and r.language is not null), '{}'::json)`;

/** What GET /transfers/{id} reads: the transfer, its recipients and its files, in one statement. */
const transferWithRecipients = preparedQuery('transfer_with_recipients', (db, name) =>
  db
    .select({ t: transfers, recipients: transferSummaryColumns.recipients, recipientLanguages: recipientLanguagesOfTransfer, files: shownFilesOfTransfer, sentBy: senderOfTransfer })
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


/**
 * The full view of a transfer. Its files and recipients are read, unless the caller has just read
 * them (files as filesOfTransfer gives them, recipients as recipientsOf does).
 */
export async function loadTransfer(
  db: Database,
  publicUrl: string,
  t: TransferRow,
  known: { files?: TransferFileRow[] | null; recipients?: string[] | null; sentBy?: Sender | null | undefined } = {},
): Promise<Transfer> {
  const files = known.files ?? (await filesOfTransfer(db, t.id));
  const recipients = known.recipients ?? (await recipientsOf(db, [t.id])).get(t.id) ?? [];
  const sentBy = known.sentBy !== undefined ? known.sentBy : await senderOf(db, t);
  const recipientLanguages = recipients.length === 0 ? {} : await recipientLanguagesOf(db, t.id);
  return transferView(t, { recipients, recipientLanguages }, files.map(toTransferFile), sentBy, publicUrl);
}

function transferView(
  t: TransferRow,
  { recipients, recipientLanguages }: { recipients: string[]; recipientLanguages: Record<string, string> },
  files: TransferFile[],
  sentBy: Sender | null,
  publicUrl: string,
): Transfer {
  return {
    ...common(
      {
        ...t,
        readyAt: iso(t.readyAt),
        finalizedAt: iso(t.finalizedAt),
        expiresAt: t.expiresAt.toISOString(),
        createdAt: t.createdAt.toISOString(),
        recipients,
        sentBy,
        sizeBytes: files.reduce((s, f) => s + f.sizeBytes, 0),
      },
      publicUrl,
    ),
    fileCount: files.length,
    hasPassword: t.passwordHash !== null,
    message: t.message,
    recipientLanguages,
    notifications: { downloads: t.notifyDownloads, beforeExpiry: t.notifyBeforeExpiry },
    files,
  };
}

/** The summary of a transfer read with `transferSummaryColumns`. */
export function toTransferSummary(publicUrl: string, t: TransferSummaryRow): TransferSummary {
  return { ...common(t, publicUrl), fileCount: t.fileCount, firstFileName: t.firstFileName };
}

/** Who may change a transfer: its workspace, and the acting member's role (docs/teams.md). */
export type TransferManager = Pick<Caller, 'workspaceId' | 'role' | 'userId'>;

export const mayManage = (caller: TransferManager, t: Pick<TransferRow, 'createdBy'>): boolean =>
  caller.role !== 'member' || (t.createdBy !== null && t.createdBy === caller.userId);

/**
 * Every member sees the workspace's transfers, but a member changes, sends, revokes, downloads
 * and reads the receipts of their own only (403 `forbidden`, reason `not_your_transfer`); the
 * owner, the admins and API keys (which act as the owner) manage every one.
 */
export function assertMayManage(caller: TransferManager, t: Pick<TransferRow, 'createdBy'>): void {
  if (mayManage(caller, t)) return;
  throw new ApiError('forbidden', said({ id: 'api.transfers.onlyMemberWhoSent', defaultMessage: 'Only the member who sent this transfer, the owner or an admin can do this' }), { reason: 'not_your_transfer' });
}

/**
 * The caller's transfer, locked for the rest of the transaction (changes to one transfer are
 * serialised), or 404: another workspace's id is simply not found; 403 for a member's teammate's.
 */
export async function lockOwnTransfer(tx: Pick<Database, 'select'>, caller: TransferManager, id: string): Promise<TransferRow> {
  const [t] = await lockTransferOfWorkspace(tx).execute({ id, workspaceId: caller.workspaceId });
  if (!t) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
  assertMayManage(caller, t);
  return t;
}

/** The full view of a transfer of the workspace, or 404. */
export async function loadOwnTransfer(db: Database, publicUrl: string, workspaceId: string, id: string): Promise<Transfer> {
  const [found] = await transferWithRecipients(db).execute({ id, workspaceId });
  if (!found) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
  return transferView(found.t, found, found.files, found.sentBy, publicUrl);
}

export async function findTransfer(db: Database, workspaceId: string, id: string) {
  const [t] = await transferOfWorkspace(db).execute({ id, workspaceId });
  return t ?? null;
}

export const newestFirst = [desc(transfers.createdAt), desc(transfers.id)] as const;
