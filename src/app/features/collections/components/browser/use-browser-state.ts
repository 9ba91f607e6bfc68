import { useCallback, useMemo, useState } from 'react';
import type { Folder } from '../../../../../contract/collections';
import type { BrowserItem } from '../../utils/browser-items';
import { canMoveFolderInto } from '../../utils/folder-tree';
import { keepShown, noSelection, type Selection } from '../../utils/selection';
import { useItemDrag } from './use-item-drag';

interface BrowserStateOptions {
  /** What is shown, in order. */
  items: BrowserItem[];
  /** Every folder of the tree, for what may be dropped where. */
  folders: readonly Folder[];
  /** The folder being viewed (null: the top level). */
  folderId: string | null;
  /** Items dropped on a folder or a crumb: a move there. */
  onDropInto: (items: BrowserItem[], to: string | null) => void;
}

/**
 * What a browser of folders and files (a collection, the vault) keeps while it is looked at: the selection, which
 * belongs to the folder it was made in (opening another starts afresh) and drops items no longer shown, and the drag
 * of selected items onto folders.
 */
export function useBrowserState({ items, folders, folderId, onDropInto }: BrowserStateOptions) {
  const keys = useMemo(() => items.map((item) => item.key), [items]);
  const [selectionIn, setSelectionIn] = useState<{ folderId: string | null; selection: Selection }>({ folderId, selection: noSelection });
  if (selectionIn.folderId !== folderId) setSelectionIn({ folderId, selection: noSelection });
  const selection = keepShown(selectionIn.folderId === folderId ? selectionIn.selection : noSelection, keys);
  const setSelection = useCallback((next: Selection) => setSelectionIn({ folderId, selection: next }), [folderId]);
  const selected = items.filter((item) => selection.selected.has(item.key));

  const drag = useItemDrag({
    itemsToDrag: useCallback(
      (item: BrowserItem) => {
        if (selection.selected.has(item.key)) return items.filter((i) => selection.selected.has(i.key));
        setSelection({ selected: new Set([item.key]), anchor: item.key, active: item.key });
        return [item];
      },
      [items, selection.selected, setSelection],
    ),
    canDropInto: useCallback(
      (dragged: BrowserItem[], to: string | null) => to !== folderId && dragged.every((item) => (item.kind === 'folder' ? canMoveFolderInto(folders, item.id, to) : true)),
      [folderId, folders],
    ),
    onDropInto,
  });

  return { selection, setSelection, selected, drag };
}
