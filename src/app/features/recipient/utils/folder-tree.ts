import type { Folder } from '../../../../contract/collections';

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The folders directly inside `parentId` (null: the top level), by name as people sort them ("Day 2" before "Day 10"). */
export function subfoldersOf(folders: Folder[], parentId: string | null): Folder[] {
  return folders.filter((f) => f.parentId === parentId).sort((a, b) => byName.compare(a.name, b.name));
}

/**
 * The way from the top level down to `folderId`, the folder itself last: what the breadcrumbs show.
 * Empty at the top level; null for a folder that is not (or no longer) in the collection.
 */
export function folderTrail(folders: Folder[], folderId: string | undefined): Folder[] | null {
  if (folderId === undefined) return [];
  const byId = new Map(folders.map((f) => [f.id, f]));
  const trail: Folder[] = [];
  for (let folder = byId.get(folderId); folder; folder = folder.parentId === null ? undefined : byId.get(folder.parentId)) {
    trail.unshift(folder);
    // A loop in the data would otherwise never end.
    if (trail.length > folders.length) return null;
  }
  return trail.length > 0 && trail[0]!.parentId === null ? trail : null;
}
