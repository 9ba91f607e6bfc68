import { and, asc, count, desc, eq, ilike, isNotNull, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transfer, TransferDownloadsSchema, TransferListQuerySchema, TransferListSchema, transferListSorts, UpdateTransferRequestSchema } from '../../contract/transfers.js';
import { e2eePlaintextFields, givenE2eePlaintextFields } from '../../contract/transfers.js';
import { hashPassword } from '../auth/passwords.js';
import type { Caller } from '../core/caller.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Tx } from '../db/connection.js';
import { likeContains } from '../core/like.js';
import { downloads, files, transferFileNames, transferFiles, transferSizeBytes, transferRecipients, transfers } from '../db/schema/index.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import type { Services } from '../services.js';
import type { DownloadLinks } from '../downloads/links.js';
import { createOwnerDownloadLinks } from './download-links.js';
import { ownedBy } from '../files/stored.js';
import { unavailableReason } from './availability.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { addRecipients, recipientLanguageChoices, resolveExpiry } from './drafts.js';
import { recipientEmails, recipientLanguagesOf } from './lifecycle.js';
import { endTransfer } from './end.js';
import { assertMayManage, findTransfer, loadOwnTransfer, mayManage, loadTransfer, lockOwnTransfer, toTransferSummary, transferSummaryColumns, type TransferRow } from './serialize.js';
import { said } from '../core/sentences.js';
import { creatorKnownTo } from '../workspaces/creators.js';

/**
 * What an owner does with the transfers of the workspace, besides creating and sending them
 * (drafts.ts, send.ts): read, list, change, revoke, see who downloaded, get download links. Plain
 * functions of the services, the caller and the parsed input, for the API, the dashboard and MCP.
 */

type TransferListSort = (typeof transferListSorts)[number];
type UpdateInput = z.output<typeof UpdateTransferRequestSchema>;
type ListQuery = z.output<typeof TransferListQuerySchema>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The caller's transfer to manage, or 404 (another workspace's id is simply not found); 403 for a member's teammate's. */
export async function ownTransfer(services: Pick<Services, 'db'>, caller: Caller, id: string): Promise<TransferRow> {
  const t = await findTransfer(services.db, caller.workspaceId, id);
  if (!t) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
  assertMayManage(caller, t);
  return t;
}

/**
 * The transfer; with `thumbnails`, each file with its preview's URL, signed for the workspace's own page, where
 * the caller may download it while its files are there: never an end-to-end encrypted transfer's (sealed) nor a teammate's for a member.
 */
export async function getTransfer(
  services: Pick<Services, 'db' | 'config' | 'clock' | 'cursorKey'>,
  caller: Caller,
  id: string,
  query: { thumbnails?: boolean } = {},
): Promise<Transfer> {
  const transfer = await loadOwnTransfer(services.db, services.config.PUBLIC_URL, caller.workspaceId, id);
  if (!query.thumbnails) return transfer;
  const t = (await findTransfer(services.db, caller.workspaceId, id))!;
  const previewable = !t.e2ee && mayManage(caller, t) && unavailableReason(t, services.clock.now(), { countLimit: false }) === null;
  const withPreviews = previewable ? await services.db.select({ id: files.id, thumbnailState: files.thumbnailState }).from(files).where(ownedBy('transfer', t.id)) : [];
  const previews = thumbnailUrls(services, { kind: 'transfer', id: t.id, expiresAt: t.expiresAt, byManager: true }, withPreviews);
  return { ...transfer, files: transfer.files.map((f) => ({ ...f, thumbnailUrl: previews.get(f.id) ?? null })) };
}

/**
 * Each order: its key, its direction, and how the last row's key goes into the cursor and back.
 * Keyset pagination on (key, id), so a page never repeats or skips a row while others are added;
 * each is an index of `transfers` that leads with the workspace.
 */
const orders: Record<TransferListSort, { key: SQLWrapper; descending: boolean; read: (v: string | number) => SQL; list: string }> = {
  created: { key: transfers.createdAt, descending: true, read: (v) => sql`${String(v)}::timestamptz`, list: 'transfers' },
  size: { key: transferSizeBytes, descending: true, read: (v) => sql`${Number(v)}::bigint`, list: 'transfers:size' },
  expiry: { key: transfers.expiresAt, descending: false, read: (v) => sql`${String(v)}::timestamptz`, list: 'transfers:expiry' },
};


/** `sentBy` of the list: `me`, a member's id or a key's id (contract: TransferListQuerySchema). */
function sentByCondition(caller: Caller, sentBy: string): SQL {
  if (sentBy === 'me') {
    if (caller.userId !== null) return eq(transfers.createdBy, caller.userId);
    return and(isNull(transfers.createdBy), eq(transfers.createdByKey, caller.credentialId))!;
  }
  return sentBy.startsWith('key_') ? and(isNull(transfers.createdBy), eq(transfers.createdByKey, sentBy))! : eq(transfers.createdBy, sentBy);
}

/** A page of the workspace's transfers in the asked order, filtered by state and text; keyset pagination. */
export async function listTransfers(services: Pick<Services, 'db' | 'cursorKey' | 'config'>, caller: Caller, query: ListQuery): Promise<z.output<typeof TransferListSchema>> {
    const { db, cursorKey, config } = services;
    const { workspaceId } = caller;
    const { limit, cursor, status, q, sort = 'created', sentBy } = query;
    const order = orders[sort];
    const after = decodeCursor(cursorKey, order.list, workspaceId, cursor);
    const conditions: SQL[] = [eq(transfers.workspaceId, workspaceId)];
    if (after) {
      const [value, id] = after;
      // A row comparison: past the last row in the order's direction, ties broken by id the same way.
      conditions.push(sql`(${order.key}, ${transfers.id}) ${sql.raw(order.descending ? '<' : '>')} (${order.read(value!)}, ${String(id)})`);
    }
    if (status === 'draft') conditions.push(isNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status === 'sent') conditions.push(isNotNull(transfers.finalizedAt));
    else if (status === 'active') conditions.push(isNotNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status) conditions.push(eq(transfers.status, status));
    if (sentBy) conditions.push(sentByCondition(caller, sentBy));
    const direction = order.descending ? desc : asc;
    if (q) {
      const pattern = likeContains(q);
      // Title or any file name, both in one trigram index of the transfer (`file_names`), so PostgreSQL
      // may find the matches there or walk the transfers in the asked order and stop after a page.
      // Names are one per line and hold no line break, so a `q` with one can only match a title.
      conditions.push(
        q.includes('\n')
          ? ilike(transfers.title, pattern)
          : sql`(${transfers.title} ILIKE ${pattern} OR ${transferFileNames} ILIKE ${pattern})`,
      );
    }
    const rows = await db
      .select({ t: transferSummaryColumns, key: sql<string | Date>`${order.key}` })
      .from(transfers)
      .where(and(...conditions))
      .orderBy(direction(order.key), direction(transfers.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const position = (key: string | Date) => (key instanceof Date ? key.toISOString() : sort === 'size' ? Number(key) : new Date(key).toISOString());
    const nextCursor = rows.length > limit && last ? encodeCursor(cursorKey, order.list, workspaceId, [position(last.key), last.t.id]) : null;
    return { transfers: page.map((r) => toTransferSummary(config.PUBLIC_URL, r.t)), nextCursor };
}

const draftOnly = ['title', 'message', 'recipients', 'recipientLanguages', 'password'] as const;

/** Changes what is given; the title, message, recipients and password only before the transfer is sent. */
export async function updateTransfer(services: Pick<Services, 'db' | 'clock' | 'config'>, caller: Caller, id: string, input: UpdateInput): Promise<Transfer> {
    const { db, clock } = services;
    const now = clock.now();
    const expiresAt = input.expiresAt === undefined ? undefined : resolveExpiry(services, caller, input.expiresAt, now);
    const passwordHash = input.password ? await hashPassword(input.password) : input.password;
    if (input.recipients?.length && !caller.canEmail) {
      throw new ApiError('insufficient_scope', said({ id: 'api.transfers.emailingRecipientsNeedsTransfers', defaultMessage: 'Emailing recipients needs the transfers:send permission' }), { required: 'transfers:send', granted: caller.scopes });
    }
    const updated = await db.transaction(async (tx) => {
      const t = await lockOwnTransfer(tx, caller, id);
      if (t.status !== 'active') throw new ApiError('conflict', said({ id: 'api.transfers.inactive', defaultMessage: '{status, select, expired {The transfer is expired} infected {The transfer is infected} removed {The transfer is removed} other {The transfer is {status}}}' }, { status: t.status }), { reason: 'transfer_inactive', status: t.status });
      const touched = draftOnly.filter((f) => input[f] !== undefined);
      if (touched.length > 0 && t.finalizedAt) {
        throw new ApiError('conflict', said({ id: 'api.transfers.draftOnlyFields', defaultMessage: '{fields} can only change before the transfer is sent', description: 'fields: API field names, comma-separated' }, { fields: touched.join(', ') }), { reason: 'transfer_sent', fields: touched });
      }
      if (t.e2ee) {
        const refused = givenE2eePlaintextFields(input);
        if (refused.length > 0) {
          throw new ApiError('invalid_request', said({ id: 'api.transfers.e2eePlaintextFields', defaultMessage: 'An end-to-end encrypted transfer takes no {fields}', description: 'fields: API field names, comma-separated' }, { fields: e2eePlaintextFields.join(', ') }), {
            location: 'body',
            fields: refused.map((f) => ({ path: f, message: 'not for e2ee transfers' })),
          });
        }
      }
      if (input.recipients !== undefined || input.recipientLanguages !== undefined) await readdressTransfer(tx, t, input, now);
      const changes = {
        ...(input.title !== undefined ? { title: input.title || null } : {}),
        ...(input.message !== undefined ? { message: input.message || null } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
        ...(expiresAt ? { expiresAt, expiringNotifiedAt: null } : {}),
        ...(input.maxDownloads !== undefined ? { maxDownloads: input.maxDownloads } : {}),
        ...(input.notifications?.downloads !== undefined ? { notifyDownloads: input.notifications.downloads } : {}),
        ...(input.notifications?.beforeExpiry !== undefined ? { notifyBeforeExpiry: input.notifications.beforeExpiry } : {}),
      };
      // Only its recipients (or nothing) changed: the transfer's own row stays as it is.
      if (Object.keys(changes).length === 0) return t;
      const [row] = await tx.update(transfers).set(changes).where(eq(transfers.id, t.id)).returning();
      return row!;
    });
    return loadTransfer(db, services.config.PUBLIC_URL, updated, { sentBy: creatorKnownTo(caller, updated) });
}

/**
 * A draft's new recipients or their languages: the list is replaced when given (a recipient kept keeps the language
 * chosen for them, unless new choices are given), and the choices are replaced when given.
 */
async function readdressTransfer(tx: Tx, t: TransferRow, input: Pick<UpdateInput, 'recipients' | 'recipientLanguages'>, now: Date) {
  if (input.recipients === undefined) {
    // The same people, in the same order: only their languages change.
    const languages = recipientLanguageChoices(input.recipientLanguages, await recipientEmails(tx, t.id));
    await tx.update(transferRecipients).set({ language: null }).where(eq(transferRecipients.transferId, t.id));
    for (const [email, language] of languages) {
      await tx.update(transferRecipients).set({ language }).where(and(eq(transferRecipients.transferId, t.id), eq(transferRecipients.email, email)));
    }
    return;
  }
  const recipients = input.recipients;
  const languages =
    input.recipientLanguages !== undefined
      ? recipientLanguageChoices(input.recipientLanguages, recipients)
      : new Map(Object.entries(await recipientLanguagesOf(tx, t.id)).filter(([email]) => recipients.includes(email)));
  await tx.delete(transferRecipients).where(eq(transferRecipients.transferId, t.id));
  await addRecipients(tx, t, recipients, now, languages);
}

/** Ends the transfer now (reason `revoked`): links stop, files are deleted, `transfer.expired` is sent. Idempotent. */
export async function revokeTransfer(services: Pick<Services, 'db' | 'clock' | 'config' | 'storage' | 'log'>, caller: Caller, id: string): Promise<Transfer> {
  const t = await ownTransfer(services, caller, id);
  await endTransfer(services, t.id, 'revoked', caller);
  return loadOwnTransfer(services.db, services.config.PUBLIC_URL, caller.workspaceId, id);
}

/** Who downloaded what: the latest receipts (200 at most), the recipients and their state, and the total. */
export async function listTransferDownloads(services: Pick<Services, 'db'>, caller: Caller, id: string): Promise<z.output<typeof TransferDownloadsSchema>> {
  const { db } = services;
  const t = await ownTransfer(services, caller, id);
    const [rows, recipients, [total]] = await Promise.all([
    db.select().from(downloads).where(eq(downloads.transferId, t.id)).orderBy(desc(downloads.createdAt), desc(downloads.id)).limit(200),
    db.select().from(transferRecipients).where(eq(transferRecipients.transferId, t.id)).orderBy(asc(transferRecipients.createdAt), asc(transferRecipients.email)),
    db.select({ n: count() }).from(downloads).where(eq(downloads.transferId, t.id)),
    ]);
    return {
      downloads: rows.map((d) => ({
        id: d.id,
        fileName: d.fileName,
        recipientEmail: d.recipientEmail,
        sessionId: d.sessionId,
        ipTruncated: null,
        createdAt: d.createdAt.toISOString(),
        completedAt: iso(d.completedAt),
      })),
      recipients: recipients.map((r) => ({
        id: r.id,
        email: r.email,
        notifiedAt: iso(r.notifiedAt),
        downloaded: r.downloadedAt !== null,
        opened: false,
        bouncedAt: iso(r.bouncedAt),
        bounceKind: r.bounceKind,
      })),
      totalDownloads: total?.n ?? 0,
    };
}

/** The owner's download links: every complete file and the zip, for an hour. */
export async function ownerDownloadLinks(services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>, caller: Caller, id: string): Promise<DownloadLinks> {
  return createOwnerDownloadLinks(services, await ownTransfer(services, caller, id));
}

/** Stores the sealed metadata of a file of an unsent end-to-end encrypted transfer (opaque to the server). */
export async function storeSealedFileMeta(services: Pick<Services, 'db'>, caller: Caller, id: string, fileId: string, sealed: { meta: string; thumb: string | null }): Promise<{ stored: true }> {
  const t = await ownTransfer(services, caller, id);
  if (!t.e2ee) throw new ApiError('conflict', said({ id: 'api.transfers.onlyEndEndEncrypted', defaultMessage: 'Only end-to-end encrypted transfers store sealed metadata' }), { reason: 'not_e2ee' });
  if (t.finalizedAt) throw new ApiError('conflict', said({ id: 'api.transfers.transferAlreadySent', defaultMessage: 'The transfer was already sent' }), { reason: 'transfer_sent' });
  const updated = await services.db
    .update(transferFiles)
    .set({ sealedMeta: sealed.meta, sealedThumb: sealed.thumb })
    .where(and(eq(transferFiles.fileId, fileId), eq(transferFiles.transferId, t.id)))
    .returning({ id: transferFiles.fileId });
  if (updated.length === 0) throw notFound(said({ id: 'api.transfers.fileNotFound', defaultMessage: 'File not found' }));
  return { stored: true };
}
