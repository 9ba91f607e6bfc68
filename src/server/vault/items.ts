import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { RegisterVaultItemsRequestSchema, UpdateVaultItemRequestSchema, VaultItem } from '../../contract/vault.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { files, vaultFolders, vaultItems, vaults } from '../db/schema/index.js';
import { downloadUrl, OWNER_LINK_TTL_MS } from '../downloads/links.js';
import { deleteStoredBytes, isDownloadable } from '../files/stored.js';
import type { Services } from '../services.js';
import { tusEndpoint } from '../uploads/register.js';
import { registerUploads } from '../uploads/register.js';
import { lockOwnVault, ownVault, vaultQuota, vaultUsage, vaultUsedBytes, type VaultHolder } from './vault.js';
import type { Tx } from '../db/connection.js';
import { said } from '../core/sentences.js';

/**
 * The vault's items: files of the engine (owner kind `vault`) that the service knows only as
 * `encrypted`, application/octet-stream, with the ciphertext's exact size; their sealed metadata,
 * thumbnail, wrapped key and folder sit in `vault_items`. Bytes go through the one tus endpoint
 * with the same upload tokens as transfers, and come back through a signed `/dl` link.
 */

/** What the engine is told of every vault file: nothing the browser sealed. */
export const VAULT_FILE_NAME = 'encrypted';
export const VAULT_FILE_TYPE = 'application/octet-stream';

const itemColumns = {
  id: files.id,
  folderId: vaultItems.folderId,
  size: files.sizeBytes,
  state: files.state,
  sealedMeta: vaultItems.sealedMeta,
  sealedThumb: vaultItems.sealedThumb,
  wrappedKey: vaultItems.wrappedKey,
  createdAt: vaultItems.createdAt,
  updatedAt: vaultItems.updatedAt,
};

/** The vault's items (all, or those matching `where`), in registration order. */
function itemsOfVault(db: Pick<Database, 'select'>, vaultId: string, where?: SQL) {
  return db
    .select(itemColumns)
    .from(vaultItems)
    .innerJoin(files, eq(files.id, vaultItems.fileId))
    .where(and(eq(vaultItems.vaultId, vaultId), where))
    .orderBy(asc(files.seq));
}

type ItemRow = Awaited<ReturnType<typeof itemsOfVault>>[number];

function toVaultItem(row: ItemRow): VaultItem {
  return {
    ...row,
    // An engine state no vault file reaches (imports) reads as failed rather than breaking the list.
    state: row.state === 'importing' ? 'failed' : row.state,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Refuses (400 naming the field) a folder id that is not a folder of this vault. */
export async function assertVaultFolder(db: Pick<Database, 'select'>, vaultId: string, folderId: string, field: string): Promise<void> {
  const [row] = await db.select({ id: vaultFolders.id }).from(vaultFolders).where(and(eq(vaultFolders.id, folderId), eq(vaultFolders.vaultId, vaultId)));
  if (!row) throw invalidField('body', field, said({ id: 'api.vault.noSuchFolderVault', defaultMessage: 'no such folder in this vault' }));
}

/** Every folder and item of the holder's vault. */
export async function listVault(services: Pick<Services, 'db'>, holder: VaultHolder) {
  const v = await ownVault(services.db, holder);
  const [folders, items] = await Promise.all([
    services.db.select().from(vaultFolders).where(eq(vaultFolders.vaultId, v.id)).orderBy(asc(vaultFolders.createdAt), asc(vaultFolders.id)),
    itemsOfVault(services.db, v.id),
  ]);
  return {
    folders: folders.map((f) => ({ id: f.id, parentId: f.parentId, sealedName: f.sealedName, createdAt: f.createdAt.toISOString(), updatedAt: f.updatedAt.toISOString() })),
    items: items.map(toVaultItem),
  };
}

type RegisterInput = z.output<typeof RegisterVaultItemsRequestSchema>;

/**
 * Registers items for upload, all or none: the vault is locked, every folder checked, and the
 * quota checked against what the vault already holds (unfinished uploads included) before
 * anything is written. Past the quota: `413 payload_too_large` (`vault_quota_exceeded`).
 */
export async function registerVaultItems(services: Services, holder: VaultHolder, input: RegisterInput) {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    const folderIds = new Map<string, number>();
    input.items.forEach((item, i) => {
      if (item.folderId != null && !folderIds.has(item.folderId)) folderIds.set(item.folderId, i);
    });
    for (const [folderId, i] of folderIds) await assertVaultFolder(tx, v.id, folderId, `items.${i}.folderId`);

    const limitBytes = vaultQuota(holder.plan, services.config);
    const usedBytes = await vaultUsedBytes(tx, v.id);
    const adding = input.items.reduce((sum, item) => sum + item.size, 0);
    if (usedBytes + adding > limitBytes) {
      throw new ApiError('payload_too_large', said({ id: 'api.vault.quotaExceeded', defaultMessage: 'These items need {adding} bytes; the vault holds {used} of its {limit} bytes' }, { adding: String(adding), used: String(usedBytes), limit: String(limitBytes) }), {
        reason: 'vault_quota_exceeded',
        location: 'body',
        usedBytes,
        limitBytes,
        requestedBytes: adding,
        fields: [{ path: 'items', message: `total size over the ${limitBytes - usedBytes} bytes left in the vault` }],
      });
    }

    const owner = { kind: 'vault' as const, id: v.id, workspaceId: v.workspaceId };
    const targets = await registerUploads(tx, services, owner, input.items.map((item) => ({ name: VAULT_FILE_NAME, size: item.size, mimeType: VAULT_FILE_TYPE })), now);
    await tx.insert(vaultItems).values(
      targets.map((t, i) => {
        const item = input.items[i]!;
        return { fileId: t.id, vaultId: v.id, folderId: item.folderId ?? null, sealedMeta: item.sealedMeta, sealedThumb: item.sealedThumb, wrappedKey: item.wrappedKey, createdAt: now, updatedAt: now };
      }),
    );
    await tx.update(vaults).set({ itemsChangedAt: now }).where(eq(vaults.id, v.id));
    return { tusEndpoint: tusEndpoint(services.config.PUBLIC_URL), files: targets, usage: { usedBytes: usedBytes + adding, limitBytes } };
  });
}

type UpdateInput = z.output<typeof UpdateVaultItemRequestSchema>;

/** Seals (the wrapped key, once), renames (new sealed metadata), moves, or gives an item its sealed thumbnail. */
export async function updateVaultItem(services: Pick<Services, 'db' | 'clock'>, holder: VaultHolder, itemId: string, input: UpdateInput): Promise<VaultItem> {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    const [current] = await itemsOfVault(tx, v.id, eq(files.id, itemId));
    if (!current) throw notFound(said({ id: 'api.vault.itemNotFound', defaultMessage: 'Item not found' }));
    if (input.folderId != null) await assertVaultFolder(tx, v.id, input.folderId, 'folderId');
    // The only copy of the file's key: once there, it is never replaced (a buggy client would lose the file).
    if (input.wrappedKey !== undefined && current.wrappedKey !== '' && current.wrappedKey !== input.wrappedKey) {
      throw new ApiError('conflict', said({ id: 'api.vault.itemSWrappedKey', defaultMessage: "This item's wrapped key is already stored and is never replaced" }), { reason: 'wrapped_key_set' });
    }
    await tx
      .update(vaultItems)
      .set({
        ...(input.wrappedKey !== undefined ? { wrappedKey: input.wrappedKey } : {}),
        ...(input.sealedMeta !== undefined ? { sealedMeta: input.sealedMeta } : {}),
        ...(input.sealedThumb !== undefined ? { sealedThumb: input.sealedThumb } : {}),
        ...(input.folderId !== undefined ? { folderId: input.folderId } : {}),
        updatedAt: now,
      })
      .where(eq(vaultItems.fileId, itemId));
    const [changed] = await itemsOfVault(tx, v.id, eq(files.id, itemId));
    return toVaultItem(changed!);
  });
}

/** Deletes these files' rows (the vault is locked); the caller deletes their bytes once committed. */
export async function removeVaultFiles(tx: Pick<Tx, 'delete'>, fileIds: string[]) {
  if (fileIds.length === 0) return [];
  // The engine's rows go; vault_items and upload tokens follow by their cascades.
  return tx.delete(files).where(inArray(files.id, fileIds)).returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
}

/** Deletes the named items of the holder's vault (ids naming nothing here are skipped), rows first, then their bytes. */
export async function deleteVaultItems(services: Pick<Services, 'db' | 'storage' | 'log' | 'config'>, holder: VaultHolder, ids: string[]) {
  const { removed, vaultId } = await services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    const found = await tx
      .select({ id: vaultItems.fileId })
      .from(vaultItems)
      .where(and(eq(vaultItems.vaultId, v.id), inArray(vaultItems.fileId, [...new Set(ids)])));
    return { removed: await removeVaultFiles(tx, found.map((f) => f.id)), vaultId: v.id };
  });
  await deleteStoredBytes(services, removed);
  return { deleted: removed.length, usage: await vaultUsage(services, services.db, holder, vaultId) };
}

/**
 * A signed `/dl` link to an item's ciphertext, for an hour (the vault's FileOwner serves it: no
 * scan wait, no receipts). An item whose bytes have not all arrived is `409 conflict`.
 */
export async function vaultItemDownload(services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey'>, holder: VaultHolder, itemId: string) {
  const v = await ownVault(services.db, holder);
  const [row] = await services.db
    .select({ state: files.state, crc32: files.crc32, scanResult: files.scanResult })
    .from(vaultItems)
    .innerJoin(files, eq(files.id, vaultItems.fileId))
    .where(and(eq(vaultItems.vaultId, v.id), eq(vaultItems.fileId, itemId)));
  if (!row) throw notFound(said({ id: 'api.vault.itemNotFound', defaultMessage: 'Item not found' }));
  if (!isDownloadable(row)) throw new ApiError('conflict', said({ id: 'api.vault.itemFinishedUploading', defaultMessage: 'This item has not finished uploading' }), { reason: 'item_incomplete' });
  const expiresAt = new Date(services.clock.now().getTime() + OWNER_LINK_TTL_MS);
  const url = downloadUrl(services, { ownerKind: 'vault', ownerId: v.id, fileId: itemId, sessionId: null, within: null, expiresAt });
  return { url, expiresAt: expiresAt.toISOString() };
}

/** The ids of the items in these folders. */
export async function itemsInFolders(tx: Pick<Database, 'select'>, vaultId: string, folderIds: string[]): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await tx
    .select({ id: vaultItems.fileId })
    .from(vaultItems)
    .where(and(eq(vaultItems.vaultId, vaultId), inArray(vaultItems.folderId, folderIds)));
  return rows.map((r) => r.id);
}

/** The item as the engine's file, when it belongs to the vault (for the FileOwner). */
export async function vaultFile(db: Pick<Database, 'select'>, vaultId: string, fileId: string) {
  const [row] = await db
    .select({ file: files })
    .from(vaultItems)
    .innerJoin(files, eq(files.id, vaultItems.fileId))
    .where(and(eq(vaultItems.vaultId, vaultId), eq(vaultItems.fileId, fileId)));
  return row?.file ?? null;
}
