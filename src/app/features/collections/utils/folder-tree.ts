import type { Folder } from '../../../../contract/collections';

/**
 * The folder tree as the API gives it (a flat list, each with its path and depth), and the changes
 * the browser makes to it before the server confirms them: a rename or a move rewrites the path and
 * depth of the folder and of everything under it, as the server does in one statement.
 */

const segmentsOf = (path: string) => path.toLocaleLowerCase().split('/');

/** Depth first by path, names compared regardless of case: the API's order. */
export function byPath(a: Folder, b: Folder): number {
  const left = segmentsOf(a.path);
  const right = segmentsOf(b.path);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const order = left[i]!.localeCompare(right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** The folder and every folder under it. */
export function subtreeIds(folders: readonly Folder[], folderId: string): Set<string> {
  const children = new Map<string | null, string[]>();
  for (const f of folders) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f.id]);
  const ids = new Set<string>();
  const pending = [folderId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (ids.has(id)) continue;
    ids.add(id);
    pending.push(...(children.get(id) ?? []));
  }
  return ids;
}

/** The folders from the top down to `folderId`, itself included; empty at the top level or for a folder that is gone. */
export function ancestryOf(folders: readonly Folder[], folderId: string | null): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const chain: Folder[] = [];
  let current = folderId === null ? undefined : byId.get(folderId);
  while (current && chain.length <= folders.length) {
    chain.unshift(current);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return chain;
}

/** Whether `folderId` may go into `targetId` (null: the top level): never into itself or anything under it. */
export function canMoveFolderInto(folders: readonly Folder[], folderId: string, targetId: string | null): boolean {
  return targetId === null || !subtreeIds(folders, folderId).has(targetId);
}

export interface FolderChange {
  folderId: string;
  name?: string;
  /** null: the top level. */
  parentId?: string | null;
}

/** The tree after renaming and/or moving one folder; unchanged when the folder or its new parent is unknown. */
export function changeFolder(folders: readonly Folder[], change: FolderChange): Folder[] {
  const folder = folders.find((f) => f.id === change.folderId);
  if (!folder) return [...folders];
  const parentId = change.parentId === undefined ? folder.parentId : change.parentId;
  const parent = parentId === null ? null : folders.find((f) => f.id === parentId);
  if (parent === undefined || !canMoveFolderInto(folders, folder.id, parentId)) return [...folders];
  const name = change.name ?? folder.name;
  const path = parent ? `${parent.path}/${name}` : name;
  const depth = parent ? parent.depth + 1 : 0;
  const below = subtreeIds(folders, folder.id);
  const oldPrefix = `${folder.path}/`;
  return folders
    .map((f) => {
      if (f.id === folder.id) return { ...f, name, parentId, path, depth };
      if (!below.has(f.id)) return f;
      return { ...f, path: `${path}/${f.path.slice(oldPrefix.length)}`, depth: f.depth - folder.depth + depth };
    })
    .sort(byPath);
}
