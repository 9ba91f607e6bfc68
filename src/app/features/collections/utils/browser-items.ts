import type { Folder, ListedCollectionFile } from '../../../../contract/collections';
import { locale } from '../../../lib/format';
import type { BrowserSort, SortOrder } from './browser-search';

/** One row or card of the browser: a folder or a file, keyed so the two never clash. */
export type BrowserItem =
  | { kind: 'folder'; key: string; id: string; name: string; folder: Folder; sizeBytes: number; fileCount: number; approved?: number; changesRequested?: number }
  | { kind: 'file'; key: string; id: string; name: string; file: ListedCollectionFile; sizeBytes: number };

export const folderKey = (id: string) => `folder:${id}`;
export const fileKey = (id: string) => `file:${id}`;

const collators = new Map<string, Intl.Collator>();

/** Names in the order of the page's language, numbers by their value ("Take 2" before "Take 10"). */
function nameOrder(): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    collators.set(locale, collator);
  }
  return collator;
}

/** Bytes and entries under each folder, its subfolders included: what a folder's row shows as its size. */
export function folderTotals(
  folders: readonly Folder[],
  files: readonly ListedCollectionFile[],
): Map<string, { sizeBytes: number; fileCount: number; approved: number; changesRequested: number }> {
  const parentOf = new Map(folders.map((f) => [f.id, f.parentId]));
  const totals = new Map(folders.map((f) => [f.id, { sizeBytes: 0, fileCount: 0, approved: 0, changesRequested: 0 }]));
  for (const file of files) {
    // Bounded by the number of folders, whatever the data says.
    for (let id = file.folderId, steps = 0; id !== null && steps <= folders.length; id = parentOf.get(id) ?? null, steps += 1) {
      const total = totals.get(id);
      if (!total) break;
      total.sizeBytes += file.sizeBytes;
      total.fileCount += 1;
      // The review state of everything under a folder, for its row.
      if (file.review?.state === 'approved') total.approved += 1;
      if (file.review?.state === 'changes_requested') total.changesRequested += 1;
    }
  }
  return totals;
}

/**
 * What is directly in `folderId` (null: the top level): folders first, then files, each sorted.
 * Folders have no date of their own: by date, they keep their names' order.
 */
export function itemsIn(
  folders: readonly Folder[],
  files: readonly ListedCollectionFile[],
  folderId: string | null,
  sort: BrowserSort,
  order: SortOrder,
): BrowserItem[] {
  const totals = folderTotals(folders, files);
  const direction = order === 'asc' ? 1 : -1;
  const collator = nameOrder();
  const byName = (a: { name: string; id: string }, b: { name: string; id: string }) => collator.compare(a.name, b.name) || a.id.localeCompare(b.id);

  const folderItems: BrowserItem[] = folders
    .filter((f) => f.parentId === folderId)
    .map((folder) => ({ kind: 'folder', key: folderKey(folder.id), id: folder.id, name: folder.name, folder, ...totals.get(folder.id)! }));
  folderItems.sort((a, b) => direction * (sort === 'size' ? a.sizeBytes - b.sizeBytes || byName(a, b) : byName(a, b)));

  const fileItems: BrowserItem[] = files
    .filter((f) => f.folderId === folderId)
    .map((file) => ({ kind: 'file', key: fileKey(file.id), id: file.id, name: file.name, file, sizeBytes: file.sizeBytes }));
  const dateOf = (item: BrowserItem) => (item.kind === 'file' ? Date.parse(item.file.createdAt) : 0);
  fileItems.sort((a, b) => {
    if (sort === 'size') return direction * (a.sizeBytes - b.sizeBytes || byName(a, b));
    if (sort === 'date') return direction * (dateOf(a) - dateOf(b) || byName(a, b));
    return direction * byName(a, b);
  });
  return [...folderItems, ...fileItems];
}

/** Images can be covers and have previews; a file still uploading cannot be downloaded yet. */
export const isImage = (file: ListedCollectionFile) => file.mimeType.toLowerCase().startsWith('image/');
export const isComplete = (file: ListedCollectionFile) => file.state === 'complete';
