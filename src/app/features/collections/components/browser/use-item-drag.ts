import { useCallback, useRef, useState, type DragEvent } from 'react';
import type { BrowserItem } from '../../utils/browser-items';

/** The type an item drag carries, so a drop of the page's own items is never taken for files to upload (those carry `Files`). */
export const ITEMS_DRAG_TYPE = 'application/x-parcel-collection-items';

/** A drop target: a folder, or the top level (null). */
const targetKey = (folderId: string | null) => folderId ?? '';

interface ItemDragOptions {
  /** The items a drag of `item` carries: the selection when the item is in it, else the item alone (and it becomes the selection). */
  itemsToDrag: (item: BrowserItem) => BrowserItem[];
  /** Whether the dragged items may go into the folder (not into itself or its own subtree, not where they are). */
  canDropInto: (items: BrowserItem[], folderId: string | null) => boolean;
  onDropInto: (items: BrowserItem[], folderId: string | null) => void;
}

/**
 * Drag and drop of the browser's own items onto a folder (a row, a card, a breadcrumb): a move.
 * The keyboard's way to the same is the Move dialog's folder picker.
 */
export function useItemDrag({ itemsToDrag, canDropInto, onDropInto }: ItemDragOptions) {
  const dragged = useRef<BrowserItem[] | null>(null);
  const [over, setOver] = useState<string | null>(null);

  const sourceProps = useCallback(
    (item: BrowserItem) => ({
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        const items = itemsToDrag(item);
        dragged.current = items;
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData(ITEMS_DRAG_TYPE, JSON.stringify(items.map((i) => i.key)));
        event.dataTransfer.setData('text/plain', items.map((i) => i.name).join('\n'));
      },
      onDragEnd: () => {
        dragged.current = null;
        setOver(null);
      },
    }),
    [itemsToDrag],
  );

  const targetProps = useCallback(
    (folderId: string | null) => ({
      onDragOver: (event: DragEvent<HTMLElement>) => {
        const items = dragged.current;
        if (!items || !canDropInto(items, folderId)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(targetKey(folderId));
      },
      onDragLeave: (event: DragEvent<HTMLElement>) => {
        if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
        setOver((current) => (current === targetKey(folderId) ? null : current));
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        const items = dragged.current;
        if (!items || !canDropInto(items, folderId)) return;
        event.preventDefault();
        event.stopPropagation();
        dragged.current = null;
        setOver(null);
        onDropInto(items, folderId);
      },
      'data-drop-target': over === targetKey(folderId) ? true : undefined,
    }),
    [canDropInto, onDropInto, over],
  );

  return { sourceProps, targetProps };
}

export type ItemDrag = ReturnType<typeof useItemDrag>;
