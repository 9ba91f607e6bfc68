import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Folder } from '../../contract/collections.js';
import type { Caller } from '../core/caller.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collectionFolders, collections, files } from '../db/schema/index.js';
import { ownedBy } from '../files/stored.js';
import type { Services } from '../services.js';
import { lockOwnCollection, ownCollection, touchCollection, type CollectionRow } from './collections.js';
import { visibleFolder } from './visibility.js';
import { said } from '../core/sentences.js';

/**
 * A collection's folders, kept as materialized paths (see the schema): a subtree is one prefix
 * match, so a rename or a move rewrites every path below in one UPDATE, and a delete takes the
 * whole subtree with its files in one transaction. Every change holds the collection's row lock
 * (lockOwnCollection), which is what keeps two concurrent moves from making a cycle.
 */

export type FolderRow = typeof collectionFolders.$inferSelect;

/**
 * A btree entry must fit in a third of a page (about 2.7 kB) or the insert fails; lower(path) is
 * indexed, so paths are capped well below that, at macOS's PATH_MAX.
 */
const MAX_PATH_BYTES = 1024;

export const toFolder = (row: FolderRow): Folder => ({
  id: row.id,
  name: row.name,
  path: row.path,
  parentId: row.parentId,
  depth: row.depth,
});

const likePrefix = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The folder and everything under it, by path alone: combine it with the collection's id (the
 * prefix index is on both). Paths below a folder are built from its stored path, so an exact,
 * case-sensitive prefix is right, and LIKE with a constant prefix can use the text_pattern_ops index.
 */
export function subtreeCondition(folder: Pick<FolderRow, 'path'>): SQL {
  return or(eq(collectionFolders.path, folder.path), sql`${collectionFolders.path} LIKE ${`${likePrefix(folder.path)}/%`}`)!;
}

/** A folder that is not in the trash: every listing, lookup and subtree query of live folders takes it. */
export const liveFolder: SQL = isNull(collectionFolders.trashedAt);

/** A folder of the collection (not in the trash), or null. */
export async function folderOfCollection(db: Pick<Database, 'select'>, collectionId: string, folderId: string, where?: SQL): Promise<FolderRow | null> {
  const [row] = await db
    .select()
    .from(collectionFolders)
    .where(and(eq(collectionFolders.collectionId, collectionId), eq(collectionFolders.id, folderId), liveFolder, where));
  return row ?? null;
}

/** A folder as anyone but the owner may name it: not one of a submission that was not sent (visibility.ts). */
export const sharedFolderOfCollection = (db: Pick<Database, 'select'>, collectionId: string, folderId: string) =>
  folderOfCollection(db, collectionId, folderId, visibleFolder);

/**
 * Depth first: comparing the paths as arrays of names puts `A/B` right after `A` (as text, `A B`
 * would come between). Lower-cased, then code-point order ("C"), so the order does not depend on
 * the database's locale; lower(path) is unique in a collection, so there are no ties.
 */
const depthFirst = sql`string_to_array(lower(${collectionFolders.path}), '/') collate "C"`;

/** Every folder of a collection (not in the trash), depth first by path. */
export const foldersOf = (db: Pick<Database, 'select'>, collectionId: string, where?: SQL) =>
  db
    .select()
    .from(collectionFolders)
    .where(and(eq(collectionFolders.collectionId, collectionId), liveFolder, where))
    .orderBy(depthFirst);

/** The folders anyone but the owner may see (visibility.ts), depth first by path. */
export const sharedFoldersOf = (db: Pick<Database, 'select'>, collectionId: string) => foldersOf(db, collectionId, visibleFolder);

/** Every folder of the caller's collection, depth first by path; 404 for a collection not theirs. */
export async function listFolders(services: Pick<Services, 'db'>, caller: Caller, collectionId: string): Promise<Folder[]> {
  await ownCollection(services, caller, collectionId);
  return (await foldersOf(services.db, collectionId)).map(toFolder);
}

const nameTaken = () => new ApiError('conflict', said({ id: 'api.collections.folderNameAnyCase', defaultMessage: 'A folder with this name (in any case) is already there' }), { reason: 'name_taken' });

/** True for the unique index on (collection, lower(path)); drizzle wraps the driver's error in `cause`. */
function isPathTaken(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgError = e as Error & { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'collection_folders_path_key') return true;
  }
  return false;
}

/** Runs `work`; the unique index, not a prior check, is what keeps sibling names apart, so its violation is the 409. */
export async function withUniqueNames<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isPathTaken(err)) throw nameTaken();
    throw err;
  }
}

export const childPath = (parent: Pick<FolderRow, 'path'> | null, name: string) => (parent ? `${parent.path}/${name}` : name);
const tooLong = (path: string) => Buffer.byteLength(path) > MAX_PATH_BYTES;
const tooLongPath = () => said({ id: 'api.collections.folderPathTooLong', defaultMessage: 'the folder\'s path would be longer than {maxBytes} bytes' }, { maxBytes: String(MAX_PATH_BYTES) });

async function parentFolder(tx: Pick<Database, 'select'>, collectionId: string, parentId: string): Promise<FolderRow> {
  const parent = await folderOfCollection(tx, collectionId, parentId);
  if (!parent) throw invalidField('body', 'parentId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
  return parent;
}

/** A new folder at the top level or in `parentId`; its name must be free among its siblings regardless of case. */
export async function createFolder(
  services: Pick<Services, 'db' | 'clock'>,
  caller: Caller,
  collectionId: string,
  input: { name: string; parentId?: string | null },
): Promise<Folder> {
  return withUniqueNames(() =>
    services.db.transaction(async (tx) => {
      await lockOwnCollection(tx, caller, collectionId);
      const parent = input.parentId ? await parentFolder(tx, collectionId, input.parentId) : null;
      const path = childPath(parent, input.name);
      if (tooLong(path)) throw invalidField('body', 'name', tooLongPath());
      const now = services.clock.now();
      const [row] = await tx
        .insert(collectionFolders)
        .values({ id: newId('fo'), collectionId, parentId: parent?.id ?? null, name: input.name, path, depth: parent ? parent.depth + 1 : 0, createdAt: now })
        .returning();
      await touchCollection(tx, collectionId, now);
      return toFolder(row!);
    }),
  );
}

/**
 * Gives `folder` a new name, path, parent and depth, and every folder under it the path and depth that follow: one
 * UPDATE from the old prefix. For a rename or a move, and for the trash, which moves a subtree out of the live tree
 * and back. The caller holds the collection's lock and has checked the destination.
 */
export async function moveSubtree(
  tx: Pick<Database, 'update'>,
  folder: Pick<FolderRow, 'id' | 'collectionId' | 'path' | 'depth'>,
  to: { name: string; path: string; parentId: string | null; depth: number },
): Promise<void> {
  // Every path in the subtree starts with the old path; swap that prefix (counted in characters, by PostgreSQL).
  const isFolder = sql`${collectionFolders.id} = ${folder.id}`;
  await tx
    .update(collectionFolders)
    .set({
      path: sql`${to.path} || substr(${collectionFolders.path}, char_length(${folder.path}) + 1)`,
      depth: sql`${collectionFolders.depth} + ${to.depth - folder.depth}`,
      name: sql`case when ${isFolder} then ${to.name} else ${collectionFolders.name} end`,
      parentId: sql`case when ${isFolder} then ${to.parentId} else ${collectionFolders.parentId} end`,
    })
    .where(and(eq(collectionFolders.collectionId, folder.collectionId), subtreeCondition(folder)));
}

/**
 * Renames and/or moves a folder with everything inside it. The new path and depth of the whole
 * subtree are written by one UPDATE from the old prefix; no cycle is possible because the
 * destination is checked against the subtree under the collection's lock.
 */
export async function updateFolder(
  services: Pick<Services, 'db' | 'clock'>,
  caller: Caller,
  collectionId: string,
  folderId: string,
  input: { name?: string; parentId?: string | null },
): Promise<Folder> {
  return withUniqueNames(() =>
    services.db.transaction(async (tx) => {
      await lockOwnCollection(tx, caller, collectionId);
      const folder = await folderOfCollection(tx, collectionId, folderId);
      if (!folder) throw notFound(said({ id: 'api.collections.folderNotFound', defaultMessage: 'Folder not found' }));
      const name = input.name ?? folder.name;
      const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
      const parent = parentId === null ? null : await parentFolder(tx, collectionId, parentId);
      if (parent && (parent.id === folder.id || parent.path.startsWith(`${folder.path}/`))) {
        throw invalidField('body', 'parentId', said({ id: 'api.collections.folderMoveIntoItself', defaultMessage: 'a folder cannot move into itself or a folder inside it' }));
      }
      const path = childPath(parent, name);
      const depth = parent ? parent.depth + 1 : 0;
      if (path === folder.path && parentId === folder.parentId) return toFolder(folder);

      const [deepest] = await tx
        .select({ bytes: sql<number>`max(octet_length(${collectionFolders.path}))`.mapWith(Number) })
        .from(collectionFolders)
        .where(and(eq(collectionFolders.collectionId, collectionId), subtreeCondition(folder)));
      if ((deepest?.bytes ?? 0) - Buffer.byteLength(folder.path) + Buffer.byteLength(path) > MAX_PATH_BYTES) {
        throw invalidField('body', input.name !== undefined ? 'name' : 'parentId', tooLongPath());
      }

      await moveSubtree(tx, folder, { name, path, parentId, depth });
      await touchCollection(tx, collectionId, services.clock.now());
      return { id: folder.id, name, path, parentId, depth };
    }),
  );
}

/**
 * Deletes a folder for good with its subfolders and every file in them (the trash's purge, collections/trash.ts):
 * the files' rows first (their collection rows go by cascade; collection_files.folder_id deliberately has none, so a
 * file is never left pointing nowhere), then the folder (subfolders go by cascade). Returns the files' stored keys,
 * for the caller to delete once committed. The caller holds the collection's lock.
 */
export async function removeFolderTree(tx: Pick<Database, 'select' | 'delete' | 'update'>, collection: Pick<CollectionRow, 'id' | 'coverFileId'>, folder: Pick<FolderRow, 'id' | 'path'>) {
  const filesInside = tx
    .select({ id: collectionFiles.fileId })
    .from(collectionFiles)
    .innerJoin(collectionFolders, eq(collectionFiles.folderId, collectionFolders.id))
    .where(and(eq(collectionFolders.collectionId, collection.id), subtreeCondition(folder)));
  const rows = await tx
    .delete(files)
    .where(and(ownedBy('collection', collection.id), inArray(files.id, filesInside)))
    .returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
  await tx.delete(collectionFolders).where(eq(collectionFolders.id, folder.id));
  if (collection.coverFileId !== null && rows.some((r) => r.id === collection.coverFileId)) {
    await tx.update(collections).set({ coverFileId: null }).where(eq(collections.id, collection.id));
  }
  return rows;
}

/** A folder still to be found or made: one distinct prefix of the requested paths. */
interface PathNode {
  /** The prefix's names, lower-cased and joined: one node per folder regardless of case. */
  key: string;
  parentKey: string | null;
  name: string;
  /** The prefix as requested (its case), relative to the starting folder. */
  relative: string;
  level: number;
  /** The field of the first path that needs it, for errors. */
  field: string;
}

type Resolved = Pick<FolderRow, 'id' | 'path' | 'depth'>;

function pathNames(relativePath: string | null, field: string): string[] {
  const names = (relativePath ?? '').split('/').filter((n) => n !== '' && n !== '.');
  // Cleaned by the contract already; a ".." here would climb out of the starting folder.
  if (names.includes('..')) throw invalidField('body', field, said({ id: 'api.collections.pathMustContainSegments', defaultMessage: 'path must not contain ".." segments' }));
  if (names.some((n) => n.length > 255)) throw invalidField('body', field, said({ id: 'api.collections.eachFolderNamePath', defaultMessage: 'each folder name in path must be at most 255 characters' }));
  return names;
}

/**
 * The existing folders at these full paths, matched by lower(path) as the unique index does, as
 * `candidate → folder` (the database's idea of case, not JavaScript's, decides what matches).
 */
async function foldersAt(tx: Pick<Database, 'select'>, collectionId: string, candidates: string[]): Promise<Map<string, Resolved>> {
  const found = new Map<string, Resolved>();
  if (candidates.length === 0) return found;
  const values = sql.join(
    candidates.map((c) => sql`(${c}::text)`),
    sql`, `,
  );
  const rows = await tx
    .select({ candidate: sql<string>`c.candidate`, id: collectionFolders.id, path: collectionFolders.path, depth: collectionFolders.depth })
    .from(collectionFolders)
    .innerJoin(sql`(values ${values}) as c(candidate)`, sql`lower(${collectionFolders.path}) = lower(c.candidate)`)
    .where(eq(collectionFolders.collectionId, collectionId));
  for (const { candidate, ...folder } of rows) found.set(candidate, folder);
  return found;
}

/**
 * The deepest folder of each relative path (slash-separated names under `parentId`, null for the
 * top level), creating the folders that are missing and reusing one whose name matches regardless
 * of case. A null or empty path gives `parentId` itself (not checked then: the caller has checked
 * it; otherwise an unknown `parentId` is 400 naming `folderId`). The caller holds the collection's
 * lock (lockOwnCollection) and touches it.
 *
 * The batch shares its lookups: one query finds every folder that already exists, then one INSERT
 * per level creates the missing ones (ON CONFLICT DO NOTHING, then read back, so a concurrent
 * upload of the same tree waits on the unique index and reuses what the other made instead of
 * failing). Rows go in sorted order so that two such batches lock index entries in the same order.
 */
export async function ensureFolderPaths(
  tx: Pick<Database, 'select' | 'insert'>,
  collectionId: string,
  parentId: string | null,
  relativePaths: (string | null)[],
  now: Date,
  fieldOf: (index: number) => string = () => 'path',
): Promise<(string | null)[]> {
  const nodes = new Map<string, PathNode>();
  const deepestKey = relativePaths.map((relativePath, index) => {
    let key: string | null = null;
    let relative = '';
    const field = fieldOf(index);
    for (const [i, name] of pathNames(relativePath, field).entries()) {
      const parentKey = key;
      key = key === null ? name.toLowerCase() : `${key}/${name.toLowerCase()}`;
      relative = relative === '' ? name : `${relative}/${name}`;
      if (!nodes.has(key)) nodes.set(key, { key, parentKey, name, relative, level: i + 1, field });
    }
    return key;
  });
  if (nodes.size === 0) return relativePaths.map(() => parentId);

  let top: Resolved | null = null;
  if (parentId !== null) {
    top = await folderOfCollection(tx, collectionId, parentId);
    if (!top) throw invalidField('body', 'folderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
  }
  for (const node of nodes.values()) {
    if (tooLong(childPath(top, node.relative))) throw invalidField('body', node.field, tooLongPath());
  }

  // Matching is by lower(path), so the requested case serves as well as the stored one here.
  const resolved = new Map<string, Resolved>();
  const existing = await foldersAt(
    tx,
    collectionId,
    [...nodes.values()].map((n) => childPath(top, n.relative)),
  );
  for (const node of nodes.values()) {
    const folder = existing.get(childPath(top, node.relative));
    if (folder) resolved.set(node.key, folder);
  }

  const missing = [...nodes.values()].filter((n) => !resolved.has(n.key)).sort((a, b) => a.level - b.level || (a.key < b.key ? -1 : 1));
  for (let level = 1; missing.length > 0; level++) {
    const batch = missing.filter((n) => n.level === level);
    if (batch.length === 0) continue;
    missing.splice(0, batch.length);
    // A new folder's path comes from its parent as stored, so an existing `Shoot` keeps its case in `Shoot/day 2`.
    const rows = batch.map((node) => {
      const parent = node.parentKey === null ? top : resolved.get(node.parentKey)!;
      return {
        node,
        values: {
          id: newId('fo'),
          collectionId,
          parentId: parent?.id ?? null,
          name: node.name,
          path: childPath(parent, node.name),
          depth: parent ? parent.depth + 1 : 0,
          createdAt: now,
        },
      };
    });
    const inserted = await tx
      .insert(collectionFolders)
      .values(rows.map((r) => r.values))
      .onConflictDoNothing()
      .returning({ id: collectionFolders.id, path: collectionFolders.path, depth: collectionFolders.depth });
    const byPath = new Map(inserted.map((f) => [f.path, f]));
    const lost: { node: PathNode; path: string }[] = [];
    for (const { node, values } of rows) {
      const folder = byPath.get(values.path);
      if (folder) resolved.set(node.key, folder);
      else lost.push({ node, path: values.path });
    }
    // Someone else (or a spelling the database folds together with another) made these first.
    const madeElsewhere = await foldersAt(
      tx,
      collectionId,
      lost.map((l) => l.path),
    );
    for (const { node, path } of lost) {
      const folder = madeElsewhere.get(path);
      if (!folder) throw new Error(`folder ${path} was neither created nor found`);
      resolved.set(node.key, folder);
    }
  }
  return deepestKey.map((key) => (key === null ? parentId : resolved.get(key)!.id));
}

/** ensureFolderPaths for one path. */
export async function ensureFolderPath(
  tx: Pick<Database, 'select' | 'insert'>,
  collectionId: string,
  parentId: string | null,
  relativePath: string | null,
  now: Date,
): Promise<string | null> {
  const [id] = await ensureFolderPaths(tx, collectionId, parentId, [relativePath], now);
  return id ?? null;
}

/**
 * A new folder under `parentId` (null: the top level) named `base`, or `base (2)`, `base (3)`…,
 * the first free among its siblings regardless of case: for folders the service names itself (an
 * upload request's submission). The caller holds the collection's lock, so nobody takes the name
 * between the look and the insert. A parent that no longer exists means the top level.
 */
export async function createFolderWithFreeName(
  tx: Pick<Database, 'select' | 'insert'>,
  collectionId: string,
  parentId: string | null,
  base: string,
  now: Date,
): Promise<FolderRow> {
  const parent = parentId === null ? null : await folderOfCollection(tx, collectionId, parentId);
  // Leave room for the parent's path and a " (n)" within the path limit.
  const room = Math.max(1, Math.min(200, MAX_PATH_BYTES - Buffer.byteLength(parent ? `${parent.path}/` : '') - 16));
  let stem = base;
  while (Buffer.byteLength(stem) > room) stem = stem.slice(0, -1);
  const siblings = await tx
    .select({ name: sql<string>`lower(${collectionFolders.name})` })
    .from(collectionFolders)
    .where(and(eq(collectionFolders.collectionId, collectionId), liveFolder, parent ? eq(collectionFolders.parentId, parent.id) : sql`${collectionFolders.parentId} is null`));
  const taken = new Set(siblings.map((s) => s.name));
  let name = stem;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})`;
  const [row] = await tx
    .insert(collectionFolders)
    .values({ id: newId('fo'), collectionId, parentId: parent?.id ?? null, name, path: childPath(parent, name), depth: parent ? parent.depth + 1 : 0, createdAt: now })
    .returning();
  return row!;
}
