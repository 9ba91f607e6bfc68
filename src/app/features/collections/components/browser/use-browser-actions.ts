import { useCallback, useState } from 'react';
import type { Folder } from '../../../../../contract/collections';
import { useDeleteFiles } from '../../api/delete-files';
import { useDeleteFolder } from '../../api/delete-folder';
import { useUpdateFile } from '../../api/update-file';
import { useUpdateFolder } from '../../api/update-folder';
import { useUpdateCollection } from '../../api/update-collection';
import type { BrowserItem } from '../../utils/browser-items';
import { canMoveFolderInto } from '../../utils/folder-tree';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

const plural = (n: number) => (n === 1 ? '1 item' : `${n} items`);

/**
 * The browser's changes, each optimistic (the list changes at once). When the server refuses one,
 * the item is as it was and the API's message is kept by item, for the list to show beside it; it
 * is announced too. A new change to an item clears its old message.
 */
export function useBrowserActions({ collectionId, folders, announce }: { collectionId: string; folders: Folder[]; announce: (text: string) => void }) {
  // `mutateAsync`, not `mutate`: a call's own callbacks fire only for the latest call of a hook, and a move of
  // several items is several calls. It also keeps its identity across renders, which the rest of the result does not.
  const { mutateAsync: updateFolder } = useUpdateFolder(collectionId);
  const { mutateAsync: updateFile } = useUpdateFile(collectionId);
  const { mutateAsync: deleteFolder } = useDeleteFolder(collectionId);
  const { mutateAsync: deleteFiles } = useDeleteFiles(collectionId);
  const { mutateAsync: updateCollection } = useUpdateCollection(collectionId);
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());

  const clearErrors = useCallback((items: BrowserItem[]) => {
    setErrors((current) => {
      if (!items.some((item) => current.has(item.key))) return current;
      const next = new Map(current);
      for (const item of items) next.delete(item.key);
      return next;
    });
  }, []);

  const failed = useCallback(
    (item: BrowserItem, what: string) => (error: unknown) => {
      const message = `${what}: ${messageOf(error)}`;
      setErrors((current) => new Map(current).set(item.key, message));
      announce(`“${item.name}”: ${message}`);
    },
    [announce],
  );

  const rename = useCallback(
    (item: BrowserItem, name: string) => {
      clearErrors([item]);
      if (name === item.name) return;
      const renamed = item.kind === 'folder' ? updateFolder({ folderId: item.id, name }) : updateFile({ fileId: item.id, name });
      renamed.catch(failed(item, 'Not renamed'));
    },
    [clearErrors, failed, updateFile, updateFolder],
  );

  /** Into `folderId` (null: the top level); what is there already, or cannot go there, stays. */
  const move = useCallback(
    (items: BrowserItem[], folderId: string | null, destinationName: string) => {
      clearErrors(items);
      let moved = 0;
      for (const item of items) {
        if (item.kind === 'folder') {
          if (item.folder.parentId === folderId || !canMoveFolderInto(folders, item.id, folderId)) continue;
          updateFolder({ folderId: item.id, parentId: folderId }).catch(failed(item, 'Not moved'));
        } else {
          if (item.file.folderId === folderId) continue;
          updateFile({ fileId: item.id, folderId }).catch(failed(item, 'Not moved'));
        }
        moved += 1;
      }
      if (moved > 0) announce(`Moved ${plural(moved)} to “${destinationName}”.`);
    },
    [announce, clearErrors, failed, folders, updateFile, updateFolder],
  );

  const remove = useCallback(
    (items: BrowserItem[]) => {
      clearErrors(items);
      const files = items.filter((item) => item.kind === 'file');
      if (files.length > 0) {
        deleteFiles(files.map((item) => item.id)).catch((error: unknown) => files.forEach((item) => failed(item, 'Not deleted')(error)));
      }
      for (const item of items) if (item.kind === 'folder') deleteFolder(item.id).catch(failed(item, 'Not deleted'));
      announce(`Moved ${plural(items.length)} to the trash.`);
    },
    [announce, clearErrors, deleteFiles, deleteFolder, failed],
  );

  const setCover = useCallback(
    (item: BrowserItem) => {
      clearErrors([item]);
      updateCollection(
        { coverFileId: item.id },
        { onError: failed(item, 'Not made the cover'), onSuccess: () => announce(`“${item.name}” is the cover now.`) },
      );
    },
    [announce, clearErrors, failed, updateCollection],
  );

  return { errors, rename, move, remove, setCover };
}
