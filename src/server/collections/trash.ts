import { and, asc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { TrashItem } from '../../contract/collections.js';
import type { Caller } from '../core/caller.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collectionFolders, collections, files, requestSubmissions, uploadRequests } from '../db/schema/index.js';
import { deleteStoredBytes } from '../files/stored.js';
import type { Services } from '../services.js';
import { lockOwnCollection, ownCollection, touchCollection, type CollectionRow } from './collections.js';
import { removeFromCollection } from './files.js';
import { childPath, folderOfCollection, liveFolder, moveSubtree, removeFolderTree, subtreeCondition, withUniqueNames, type FolderRow } from './folders.js';
import { said } from '../core/sentences.js';

/**
 * The trash of a collection. Deleting a file or a folder (the API's DELETE, which answers as before) moves it here:
 * out of every listing, count, zip, download link and preview at once, for everyone, owner included. For
 * TRASH_RETENTION_DAYS it can be restored (with its bytes untouched) or deleted for good; then the sweep purges it
 * and its bytes.
 *
 * What the owner deleted is one item: a file, or a folder with everything in it then. Its rows carry the item's id
 * (`trash_batch`), so a restore brings back exactly that. A trashed folder's subtree is moved to a path of its own
 * (`\u0001<id>`, a control character no folder name may hold), outside the live tree, so a new folder may take its
 * name meanwhile and nothing done to live folders reaches it; where it was is kept to go back to.
 */

const TRASH_ROOT = '\u0001';
const DAY_MS = 86_400_000;

type Tx = Pick<Database, 'select' | 'update' | 'delete' | 'insert'>;

/** Moves these live files of the (locked) collection to the trash, each an item of its own. Returns how many went. */
export async function trashFiles(tx: Tx, c: Pick<CollectionRow, 'id' | 'coverFileId'>, fileIds: string[], now: Date): Promise<number> {
  if (fileIds.length === 0) return 0;
  const moved = await tx
    .update(collectionFiles)
    .set({ trashedAt: now, trashBatch: sql`${collectionFiles.fileId}`, trashedFromFolderId: sql`${collectionFiles.folderId}`, folderId: null })
    .where(and(eq(collectionFiles.collectionId, c.id), inArray(collectionFiles.fileId, fileIds), isNull(collectionFiles.trashedAt)))
    .returning({ id: collectionFiles.fileId });
  if (c.coverFileId !== null && moved.some((m) => m.id === c.coverFileId)) await tx.update(collections).set({ coverFileId: null }).where(eq(collections.id, c.id));
  if (moved.length > 0) await touchCollection(tx, c.id, now);
  return moved.length;
}

/** `DELETE /collections/{id}/files`: the named files of the caller's collection go to the trash (ids naming nothing here are skipped). */
export async function trashCollectionFiles(services: Pick<Services, 'db' | 'clock'>, caller: Caller, collectionId: string, fileIds: string[]) {
  const deleted = await services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    return trashFiles(tx, c, [...new Set(fileIds)], services.clock.now());
  });
  return { deleted };
}

/** `DELETE /collections/{id}/folders/{folderId}`: the folder goes to the trash with everything in it. */
export async function trashCollectionFolder(services: Pick<Services, 'db' | 'clock'>, caller: Caller, collectionId: string, folderId: string): Promise<{ deleted: true }> {
  await services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    const folder = await folderOfCollection(tx, collectionId, folderId);
    if (!folder) throw notFound(said({ id: 'api.collections.folderNotFound', defaultMessage: 'Folder not found' }));
    const now = services.clock.now();
    const batch = folder.id;
    const subtree = and(eq(collectionFolders.collectionId, collectionId), subtreeCondition(folder), liveFolder);
    const inside = await tx
      .update(collectionFiles)
      .set({ trashedAt: now, trashBatch: batch })
      .where(and(isNull(collectionFiles.trashedAt), inArray(collectionFiles.folderId, tx.select({ id: collectionFolders.id }).from(collectionFolders).where(subtree))))
      .returning({ id: collectionFiles.fileId });
    // Upload requests and their submissions stop sending files there, as when a folder was deleted outright.
    const subtreeIds = tx.select({ id: collectionFolders.id }).from(collectionFolders).where(subtree);
    await tx.update(uploadRequests).set({ folderId: null }).where(inArray(uploadRequests.folderId, subtreeIds));
    await tx.update(requestSubmissions).set({ folderId: null }).where(inArray(requestSubmissions.folderId, subtreeIds));
    await tx.update(collectionFolders).set({ trashedAt: now, trashBatch: batch }).where(subtree);
    await tx.update(collectionFolders).set({ trashedFromParentId: folder.parentId, trashedPath: folder.path }).where(eq(collectionFolders.id, folder.id));
    await moveSubtree(tx, folder, { name: folder.name, path: `${TRASH_ROOT}${batch}`, parentId: null, depth: 0 });
    if (c.coverFileId !== null && inside.some((f) => f.id === c.coverFileId)) await tx.update(collections).set({ coverFileId: null }).where(eq(collections.id, c.id));
    await touchCollection(tx, collectionId, now);
  });
  return { deleted: true };
}

/** The items in a collection's trash, the latest first: what `GET /collections/{id}/trash` answers. */
export async function listTrash(services: Pick<Services, 'db' | 'config'>, caller: Caller, collectionId: string): Promise<TrashItem[]> {
  await ownCollection(services, caller, collectionId);
  const keepMs = services.config.TRASH_RETENTION_DAYS * DAY_MS;
  const purgeAt = (trashedAt: Date) => new Date(trashedAt.getTime() + keepMs).toISOString();
  const folders = await services.db
    .select({ id: collectionFolders.id, name: collectionFolders.name, path: collectionFolders.trashedPath, trashedAt: collectionFolders.trashedAt })
    .from(collectionFolders)
    .where(and(eq(collectionFolders.collectionId, collectionId), isNotNull(collectionFolders.trashedAt), eq(collectionFolders.trashBatch, collectionFolders.id)));
  // What each trashed folder holds, every level under it: its files carry its id.
  const held = await services.db
    .select({ batch: collectionFiles.trashBatch, count: sql<number>`count(*)`.mapWith(Number), bytes: sql<number>`coalesce(sum(${files.sizeBytes}), 0)`.mapWith(Number) })
    .from(collectionFiles)
    .innerJoin(files, eq(files.id, collectionFiles.fileId))
    .where(and(eq(collectionFiles.collectionId, collectionId), isNotNull(collectionFiles.trashedAt)))
    .groupBy(collectionFiles.trashBatch);
  const inside = new Map(held.map((h) => [h.batch, h]));
  const loose = await services.db
    .select({ id: files.id, name: files.name, sizeBytes: files.sizeBytes, mimeType: files.mimeType, trashedAt: collectionFiles.trashedAt, fromFolder: collectionFolders.path })
    .from(collectionFiles)
    .innerJoin(files, eq(files.id, collectionFiles.fileId))
    .leftJoin(collectionFolders, and(eq(collectionFolders.id, collectionFiles.trashedFromFolderId), liveFolder))
    .where(and(eq(collectionFiles.collectionId, collectionId), isNotNull(collectionFiles.trashedAt), eq(collectionFiles.trashBatch, collectionFiles.fileId)));
  const items: TrashItem[] = [
    ...folders.map((f) => ({ kind: 'folder' as const, id: f.id, name: f.name, path: f.path ?? f.name, mimeType: null, fileCount: inside.get(f.id)?.count ?? 0, sizeBytes: inside.get(f.id)?.bytes ?? 0, trashedAt: f.trashedAt!.toISOString(), purgeAt: purgeAt(f.trashedAt!) })),
    ...loose.map((f) => ({ kind: 'file' as const, id: f.id, name: f.name, path: f.fromFolder ? `${f.fromFolder}/${f.name}` : f.name, mimeType: f.mimeType, fileCount: 1, sizeBytes: f.sizeBytes, trashedAt: f.trashedAt!.toISOString(), purgeAt: purgeAt(f.trashedAt!) })),
  ];
  return items.sort((a, b) => b.trashedAt.localeCompare(a.trashedAt) || a.name.localeCompare(b.name));
}

type TrashedRoot = { kind: 'file'; id: string; fromFolderId: string | null } | { kind: 'folder'; folder: FolderRow };

/** The item `itemId` at the top of the collection's trash (a file trashed on its own, or a trashed folder), or 404. */
async function trashedRoot(tx: Pick<Database, 'select'>, collectionId: string, itemId: string): Promise<TrashedRoot> {
  const [folder] = await tx
    .select()
    .from(collectionFolders)
    .where(and(eq(collectionFolders.collectionId, collectionId), eq(collectionFolders.id, itemId), isNotNull(collectionFolders.trashedAt), eq(collectionFolders.trashBatch, itemId)));
  if (folder) return { kind: 'folder', folder };
  const [file] = await tx
    .select({ id: collectionFiles.fileId, fromFolderId: collectionFiles.trashedFromFolderId })
    .from(collectionFiles)
    .where(and(eq(collectionFiles.collectionId, collectionId), eq(collectionFiles.fileId, itemId), isNotNull(collectionFiles.trashedAt), eq(collectionFiles.trashBatch, itemId)));
  if (file) return { kind: 'file', ...file };
  throw notFound(said({ id: 'api.collections.itemInTheTrashNotFound', defaultMessage: 'Item in the trash not found' }));
}

/**
 * Brings an item back where it was: a file into its folder, a folder under its parent, or to the top level when that
 * folder is gone or in the trash itself. A folder whose name a new folder took meanwhile is `409 conflict`
 * (`name_taken`): rename the other first. Returns where the item is now.
 */
export async function restoreFromTrash(services: Pick<Services, 'db' | 'clock'>, caller: Caller, collectionId: string, itemId: string): Promise<{ restored: { kind: 'file' | 'folder'; id: string; folderId: string | null } }> {
  return withUniqueNames(() =>
    services.db.transaction(async (tx) => {
      await lockOwnCollection(tx, caller, collectionId);
      const root = await trashedRoot(tx, collectionId, itemId);
      const now = services.clock.now();
      if (root.kind === 'file') {
        const into = root.fromFolderId === null ? null : await folderOfCollection(tx, collectionId, root.fromFolderId);
        await tx
          .update(collectionFiles)
          .set({ trashedAt: null, trashBatch: null, trashedFromFolderId: null, folderId: into?.id ?? null })
          .where(eq(collectionFiles.fileId, root.id));
        await touchCollection(tx, collectionId, now);
        return { restored: { kind: 'file' as const, id: root.id, folderId: into?.id ?? null } };
      }
      const { folder } = root;
      const parent = folder.trashedFromParentId === null ? null : await folderOfCollection(tx, collectionId, folder.trashedFromParentId);
      const batch = eq(collectionFolders.trashBatch, folder.id);
      await tx.update(collectionFolders).set({ trashedAt: null, trashBatch: null, trashedFromParentId: null, trashedPath: null }).where(and(eq(collectionFolders.collectionId, collectionId), batch));
      await tx.update(collectionFiles).set({ trashedAt: null, trashBatch: null }).where(and(eq(collectionFiles.collectionId, collectionId), eq(collectionFiles.trashBatch, folder.id)));
      // Back into the live tree: the unique index on lower(path) answers a name taken meanwhile (withUniqueNames).
      await moveSubtree(tx, folder, { name: folder.name, path: childPath(parent, folder.name), parentId: parent?.id ?? null, depth: parent ? parent.depth + 1 : 0 });
      await touchCollection(tx, collectionId, now);
      return { restored: { kind: 'folder' as const, id: folder.id, folderId: parent?.id ?? null } };
    }),
  );
}

/** Deletes one item of the trash for good, rows first, then its bytes. */
export async function deleteFromTrash(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log'>, caller: Caller, collectionId: string, itemId: string): Promise<{ deleted: true }> {
  const removed = await services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    return removeTrashed(tx, c, await trashedRoot(tx, collectionId, itemId), services.clock.now());
  });
  await deleteStoredBytes(services, removed);
  return { deleted: true };
}

function removeTrashed(tx: Tx, c: Pick<CollectionRow, 'id' | 'coverFileId'>, root: TrashedRoot, now: Date) {
  return root.kind === 'file' ? removeFromCollection(tx, c, [root.id], now) : removeFolderTree(tx, c, root.folder);
}

/**
 * The sweep: every item trashed longer ago than TRASH_RETENTION_DAYS is deleted for good with its bytes, a
 * collection at a time under its lock. Returns how many items went.
 */
export async function purgeExpiredTrash(services: Pick<Services, 'db' | 'clock' | 'config' | 'storage' | 'log'>): Promise<number> {
  const before = new Date(services.clock.now().getTime() - services.config.TRASH_RETENTION_DAYS * DAY_MS);
  const due = await services.db
    .select({ collectionId: collectionFolders.collectionId, id: collectionFolders.id })
    .from(collectionFolders)
    .where(and(lt(collectionFolders.trashedAt, before), eq(collectionFolders.trashBatch, collectionFolders.id)))
    .union(
      services.db
        .select({ collectionId: collectionFiles.collectionId, id: collectionFiles.fileId })
        .from(collectionFiles)
        .where(and(lt(collectionFiles.trashedAt, before), eq(collectionFiles.trashBatch, collectionFiles.fileId))),
    )
    .orderBy(asc(sql`1`))
    .limit(1000);
  let purged = 0;
  for (const item of due) {
    const removed = await services.db.transaction(async (tx) => {
      const [c] = await tx.select().from(collections).where(eq(collections.id, item.collectionId)).for('update');
      if (!c) return [];
      const root = await trashedRoot(tx, c.id, item.id).catch((err: unknown) => (err instanceof ApiError ? null : Promise.reject(err)));
      // Restored or deleted meanwhile: nothing to do.
      if (!root) return [];
      purged++;
      return removeTrashed(tx, c, root, services.clock.now());
    });
    await deleteStoredBytes(services, removed);
  }
  return purged;
}
