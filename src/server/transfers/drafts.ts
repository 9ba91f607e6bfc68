import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AddFilesRequestSchema, CreateTransferRequestSchema } from '../../contract/transfers.js';
import { e2eeRefusedInBatch } from '../../contract/transfers.js';
import { hashPassword } from '../auth/passwords.js';
import { newId, randomBase62, sha256 } from '../core/secrets.js';
import type { Tx } from '../db/connection.js';
import { files, transferFiles, transferRecipients, transfers, workspaces } from '../db/schema/index.js';
import { deleteStoredBytes, ownedBy } from '../files/stored.js';
import type { Caller } from '../core/caller.js';
import { ApiError, invalidField } from '../core/errors.js';
import type { Services } from '../services.js';
import { checkImportUrls, registerImports, registerUploads, tusEndpoint } from '../uploads/register.js';
import { creatorColumns, creatorOfCaller } from '../workspaces/creators.js';
import { planLimits } from '../workspaces/plan.js';
import { findTransfer, lockOwnTransfer, type TransferManager, type TransferRow } from './serialize.js';
import { chargeApiUpload } from '../uploads/usage.js';
import { said } from '../core/sentences.js';

type CreateInput = z.output<typeof CreateTransferRequestSchema>;
type FilesInput = z.output<typeof AddFilesRequestSchema>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Bytes registered through the API are usage; the dashboard's own uploads are not. */
const originOf = (caller: Caller) => (caller.via === 'session' ? 'web' : 'api');

/** The expiry a transfer gets: fixed on the free plan, chosen within the plan's range on a paid one. */
export function resolveExpiry(services: Pick<Services, 'config'>, caller: Caller, requested: string | undefined, now: Date): Date {
  const limits = planLimits(caller.plan, services.config).transferExpiry;
  if (requested === undefined) return new Date(now.getTime() + limits.defaultDays * DAY);
  if (!limits.choosable) {
    throw new ApiError('upgrade_required', said({ id: 'api.transfers.choosingWhenTransferExpires', defaultMessage: 'Choosing when a transfer expires needs a paid plan; the free plan\'s expiry is fixed' }), {
      defaultDays: limits.defaultDays,
    });
  }
  const at = new Date(requested);
  const earliest = now.getTime() + limits.minimumSeconds * 1000;
  const latest = now.getTime() + limits.maximumDays * DAY;
  if (at.getTime() < earliest || at.getTime() > latest) {
    throw new ApiError('invalid_request', said({ id: 'api.transfers.expiryOutOfRange', defaultMessage: 'expiresAt must be between {minimumSeconds} seconds and {maximumDays} days from now' }, { minimumSeconds: String(limits.minimumSeconds), maximumDays: String(limits.maximumDays) }), {
      location: 'body',
      fields: [{ path: 'expiresAt', message: 'out of the plan\'s range' }],
    });
  }
  return at;
}


function checkCeiling(total: number, maxBytes: number) {
  if (total > maxBytes) {
    throw new ApiError('invalid_request', said({ id: 'api.transfers.overCeiling', defaultMessage: 'The files add up to {total} bytes, over this transfer\'s ceiling of {maxBytes} bytes' }, { total: String(total), maxBytes: String(maxBytes) }), {
      location: 'body',
      maxBytes,
      fields: [{ path: 'files', message: `total size over ${maxBytes} bytes` }],
    });
  }
}

/**
 * The languages a sender chose for recipients' mail, by address as stored (lower-cased); each address must be one of
 * `recipients` (400 naming `recipientLanguages.<address>` otherwise).
 */
export function recipientLanguageChoices(languages: Record<string, string> | undefined, recipients: readonly string[]): Map<string, string> {
  const choices = new Map<string, string>();
  const known = new Set(recipients);
  for (const [address, language] of Object.entries(languages ?? {})) {
    const email = address.trim().toLowerCase();
    if (!known.has(email)) throw invalidField('body', `recipientLanguages.${address}`, said({ id: 'api.transfers.oneTransferSRecipients', defaultMessage: 'not one of the transfer\'s recipients' }));
    choices.set(email, language);
  }
  return choices;
}

/** Adds recipients to a transfer, once per address, each with the language chosen for their mail (if any). */
export async function addRecipients(tx: Tx, t: Pick<TransferRow, 'id' | 'workspaceId'>, emails: readonly string[], now: Date, languages: ReadonlyMap<string, string> = new Map()) {
  for (const email of new Set(emails)) {
    // The personal link token is minted when the mail is sent; until then the hash matches nothing.
    await tx.insert(transferRecipients).values({
      id: newId('rc'),
      workspaceId: t.workspaceId,
      transferId: t.id,
      email,
      linkTokenHash: sha256(randomBase62(43)),
      language: languages.get(email) ?? null,
      createdAt: now,
    });
  }
}

/**
 * Registers files on a draft, each upload with its upload token and each URL import for the
 * importer, all inside the caller's transaction.
 */
async function registerFiles(tx: Tx, services: Services, t: TransferRow, input: Pick<FilesInput, 'files' | 'imports'>, now: Date) {
  const owner = { kind: 'transfer' as const, id: t.id, workspaceId: t.workspaceId };
  const targets = await registerUploads(tx, services, owner, input.files, now);
  const imports = await registerImports(tx, owner, input.imports, now);
  const paths = [...targets.map((target, i) => ({ fileId: target.id, path: input.files[i]!.path ?? null })), ...imports.map((entry, i) => ({ fileId: entry.fileId, path: input.imports[i]!.path ?? null }))];
  if (paths.length > 0) await tx.insert(transferFiles).values(paths.map((p) => ({ ...p, transferId: t.id })));
  return { targets, imports };
}

/** Bytes a call registers: its uploads' sizes and its imports' declared sizes (an import without one is charged nothing now). */
const registeredBytes = (input: Pick<FilesInput, 'files' | 'imports'>) => input.files.reduce((s, f) => s + f.size, 0) + input.imports.reduce((s, i) => s + (i.size ?? 0), 0);

export async function createTransfer(services: Services, caller: Caller, input: CreateInput) {
  checkImportUrls(services, input.imports);
  const now = services.clock.now();
  const limits = planLimits(caller.plan, services.config);
  const expiresAt = resolveExpiry(services, caller, input.expiresAt, now);
  const total = registeredBytes(input);
  checkCeiling(total, limits.transferMaxBytes);
  if (input.recipients.length > 0 && !caller.canEmail) {
    throw new ApiError('insufficient_scope', said({ id: 'api.transfers.emailingRecipientsNeedsTransfers', defaultMessage: 'Emailing recipients needs the transfers:send permission' }), {
      required: 'transfers:send',
      granted: caller.scopes,
    });
  }
  const languages = recipientLanguageChoices(input.recipientLanguages, input.recipients);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const origin = originOf(caller);

  return services.db.transaction(async (tx) => {
    // Imports are charged like API uploads, before anything is fetched; the check runs even when nothing is declared.
    if (origin === 'api' || input.imports.length > 0) await chargeApiUpload(tx, services, caller.workspaceId, total, now, { check: true });
    const [t] = await tx
      .insert(transfers)
      .values({
        id: newId('tr'),
        workspaceId: caller.workspaceId,
        slug: randomBase62(22),
        title: input.e2ee ? null : (input.title ?? null) || null,
        message: (input.message ?? null) || null,
        e2ee: input.e2ee,
        passwordHash,
        maxDownloads: input.maxDownloads ?? null,
        // Unless the call says, the workspace's defaults, read by the insert itself.
        notifyDownloads: input.notifications?.downloads ?? sql`(select ${workspaces.notifyDownloads} from ${workspaces} where ${workspaces.id} = ${caller.workspaceId})`,
        notifyBeforeExpiry: input.notifications?.beforeExpiry ?? sql`(select ${workspaces.notifyBeforeExpiry} from ${workspaces} where ${workspaces.id} = ${caller.workspaceId})`,
        maxBytes: limits.transferMaxBytes,
        origin,
        expiresAt,
        // Who sent it: the member, or the API key (which acts as the owner).
        ...creatorColumns(creatorOfCaller(caller)),
        createdAt: now,
      })
      .returning();
    const transfer = t!;
    await addRecipients(tx, transfer, input.recipients, now, languages);
    const { targets, imports } = await registerFiles(tx, services, transfer, input, now);
    return {
      id: transfer.id,
      slug: transfer.slug,
      expiresAt: transfer.expiresAt.toISOString(),
      maxBytes: transfer.maxBytes,
      tusEndpoint: tusEndpoint(services.config.PUBLIC_URL),
      files: targets,
      imports,
    };
  });
}

/** Loads a transfer of the caller's workspace that is still a draft, or answers why not. */
async function draftOf(tx: Tx, caller: TransferManager, transferId: string) {
  const t = await lockOwnTransfer(tx, caller, transferId);
  if (t.status !== 'active') throw new ApiError('conflict', said({ id: 'api.transfers.inactive', defaultMessage: '{status, select, expired {The transfer is expired} infected {The transfer is infected} removed {The transfer is removed} other {The transfer is {status}}}' }, { status: t.status }), { reason: 'transfer_inactive', status: t.status });
  if (t.finalizedAt) throw new ApiError('conflict', said({ id: 'api.transfers.transferAlreadySentFiles', defaultMessage: 'The transfer was already sent; files can only change on a draft' }), { reason: 'transfer_sent' });
  return t;
}

export async function addFiles(services: Services, caller: Caller, transferId: string, input: FilesInput) {
  checkImportUrls(services, input.imports);
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const t = await draftOf(tx, caller, transferId);
    const refused = t.e2ee ? e2eeRefusedInBatch(input) : [];
    if (refused.length > 0) {
      throw new ApiError('invalid_request', said({ id: 'api.transfers.endEndEncryptedTransfer2', defaultMessage: 'An end-to-end encrypted transfer takes no imports or file paths' }), {
        location: 'body',
        fields: refused.map((path) => ({ path, message: 'not for e2ee transfers' })),
      });
    }
    const [existing] = await tx
      .select({ total: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
      .from(files)
      .where(ownedBy('transfer', t.id));
    const adding = registeredBytes(input);
    checkCeiling(Number(existing?.total ?? 0) + adding, t.maxBytes);
    if (t.origin === 'api' || input.imports.length > 0) await chargeApiUpload(tx, services, caller.workspaceId, adding, now, { check: true });
    const { targets, imports } = await registerFiles(tx, services, t, input, now);
    return { tusEndpoint: tusEndpoint(services.config.PUBLIC_URL), files: targets, imports };
  });
}

/** Removes a file from a draft, bytes included. Usage already charged for it is not refunded. */
export async function deleteFile(services: Services, caller: Caller, transferId: string, fileId: string) {
  const removed = await services.db.transaction(async (tx) => {
    const t = await draftOf(tx, caller, transferId);
    const rows = await tx
      .delete(files)
      .where(and(eq(files.id, fileId), ownedBy('transfer', t.id)))
      .returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
    return rows[0] ?? null;
  });
  if (!removed) throw new ApiError('not_found', said({ id: 'api.transfers.fileFoundTransfer', defaultMessage: 'File not found in this transfer' }));
  await deleteStoredBytes(services, [removed]);
  return { deleted: true };
}

/**
 * Deletes an unsent draft, files and all: rows first, so an upload still arriving finds no file
 * and is refused, then the bytes. False when it is gone already or was sent meanwhile.
 */
export async function deleteDraft(services: Pick<Services, 'db' | 'storage' | 'log'>, transferId: string): Promise<boolean> {
  const removed = await services.db.transaction(async (tx) => {
    const deleted = await tx.delete(transfers).where(and(eq(transfers.id, transferId), isNull(transfers.finalizedAt))).returning({ id: transfers.id });
    if (deleted.length === 0) return null;
    // The stored files are the engine's rows, not the transfer's: they go with it here.
    return tx.delete(files).where(ownedBy('transfer', transferId)).returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
  });
  if (!removed) return false;
  await deleteStoredBytes(services, removed);
  return true;
}

/** The owner discards a draft they will not send. A sent transfer is revoked instead (409). */
export async function discardDraft(services: Services, caller: Caller, transferId: string) {
  await services.db.transaction((tx) => draftOf(tx, caller, transferId));
  if (!(await deleteDraft(services, transferId))) throw new ApiError('conflict', said({ id: 'api.transfers.transferSentMeanwhileRevoke', defaultMessage: 'The transfer was sent meanwhile; revoke it instead' }), { reason: 'transfer_sent' });
  return { deleted: true as const };
}

export { findTransfer };
