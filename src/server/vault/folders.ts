import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { CreateVaultFolderRequestSchema, UpdateVaultFolderRequestSchema, VaultFolder } from '../../contract/vault.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { vaultFolders } from '../db/schema/index.js';
import { deleteStoredBytes } from '../files/stored.js';
import type { Services } from '../services.js';
import { assertVaultFolder, itemsInFolders, removeVaultFiles } from './items.js';
import { lockOwnVault, vaultUsage, type VaultHolder } from './vault.js';
import { said } from '../core/sentences.js';

/**
 * The vault's folders: a tree by parent id with sealed names (the service sees no name, so there
 * is no path and no uniqueness among siblings; the browser keeps names apart). Every change locks
 * the vault first, so two concurrent moves cannot build a cycle between them.
 */

type FolderRow = typeof vaultFolders.$inferSelect;

export const toVaultFolder = (f: FolderRow): VaultFolder => ({
  id: f.id,
  parentId: f.parentId,
  sealedName: f.sealedName,
  createdAt: f.createdAt.toISOString(),
  updatedAt: f.updatedAt.toISOString(),
});

async function folderOfVault(db: Pick<Database, 'select'>, vaultId: string, folderId: string): Promise<FolderRow> {
  const [row] = await db.select().from(vaultFolders).where(and(eq(vaultFolders.id, folderId), eq(vaultFolders.vaultId, vaultId)));
  if (!row) throw notFound(said({ id: 'api.vault.folderNotFound', defaultMessage: 'Folder not found' }));
  return row;
}

/** The folder and every folder under it (ids), however deep. */
async function subtreeOf(tx: Pick<Database, 'execute'>, vaultId: string, folderId: string): Promise<string[]> {
  const result = await tx.execute<{ id: string }>(sql`
    WITH RECURSIVE subtree(id) AS (
      SELECT id FROM vault_folders WHERE id = ${folderId} AND vault_id = ${vaultId}
      UNION
      SELECT f.id FROM vault_folders f JOIN subtree s ON f.parent_id = s.id WHERE f.vault_id = ${vaultId}
    )
    SELECT id FROM subtree`);
  return result.rows.map((r) => r.id);
}

type CreateInput = z.output<typeof CreateVaultFolderRequestSchema>;

export async function createVaultFolder(services: Pick<Services, 'db' | 'clock'>, holder: VaultHolder, input: CreateInput): Promise<VaultFolder> {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    if (input.parentId != null) await assertVaultFolder(tx, v.id, input.parentId, 'parentId');
    const [row] = await tx
      .insert(vaultFolders)
      .values({ id: newId('vfd'), vaultId: v.id, parentId: input.parentId ?? null, sealedName: input.sealedName, createdAt: now, updatedAt: now })
      .returning();
    return toVaultFolder(row!);
  });
}

type UpdateInput = z.output<typeof UpdateVaultFolderRequestSchema>;

/** Renames (a new sealed name) and/or moves a folder; into itself or a folder under it is refused (400 `parentId`). */
export async function updateVaultFolder(services: Pick<Services, 'db' | 'clock'>, holder: VaultHolder, folderId: string, input: UpdateInput): Promise<VaultFolder> {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    await folderOfVault(tx, v.id, folderId);
    if (input.parentId != null) {
      await assertVaultFolder(tx, v.id, input.parentId, 'parentId');
      if ((await subtreeOf(tx, v.id, folderId)).includes(input.parentId)) {
        throw invalidField('body', 'parentId', said({ id: 'api.vault.folderMoveIntoItself', defaultMessage: 'a folder cannot move into itself or a folder inside it' }));
      }
    }
    const [row] = await tx
      .update(vaultFolders)
      .set({
        ...(input.sealedName !== undefined ? { sealedName: input.sealedName } : {}),
        ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
        updatedAt: now,
      })
      .where(eq(vaultFolders.id, folderId))
      .returning();
    return toVaultFolder(row!);
  });
}

/**
 * Deletes a folder. Only an empty one (no subfolder, no item) unless `recursive`: then its whole
 * subtree goes with every item in it, in one transaction, and the items' bytes once committed.
 * A folder that is not empty without `recursive` is `409 conflict` (`folder_not_empty`).
 */
export async function deleteVaultFolder(services: Pick<Services, 'db' | 'storage' | 'log' | 'config'>, holder: VaultHolder, folderId: string, options: { recursive: boolean }) {
  const { removed, deletedFolders, vaultId } = await services.db.transaction(async (tx) => {
    const v = await lockOwnVault(tx, holder);
    await folderOfVault(tx, v.id, folderId);
    const subtree = await subtreeOf(tx, v.id, folderId);
    const itemIds = await itemsInFolders(tx, v.id, subtree);
    if (!options.recursive && (subtree.length > 1 || itemIds.length > 0)) {
      throw new ApiError('conflict', said({ id: 'api.vault.folderEmptyDeleteWhat', defaultMessage: 'This folder is not empty; delete what is in it first, or delete it with recursive=true' }), {
        reason: 'folder_not_empty',
        folders: subtree.length - 1,
        items: itemIds.length,
      });
    }
    const removedFiles = await removeVaultFiles(tx, itemIds);
    // Its subfolders follow by the parent cascade; their items are already gone.
    await tx.delete(vaultFolders).where(eq(vaultFolders.id, folderId));
    return { removed: removedFiles, deletedFolders: subtree.length, vaultId: v.id };
  });
  await deleteStoredBytes(services, removed);
  return { deletedFolders, deletedItems: removed.length, usage: await vaultUsage(services, services.db, holder, vaultId) };
}
