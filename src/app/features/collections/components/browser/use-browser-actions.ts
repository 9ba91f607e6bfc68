import { useCallback, useState } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { Folder } from '../../../../../contract/collections';
import { useIntl } from '../../../../lib/intl';
import { useDeleteFiles } from '../../api/delete-files';
import { useDeleteFolder } from '../../api/delete-folder';
import { useUpdateFile } from '../../api/update-file';
import { useUpdateFolder } from '../../api/update-folder';
import { useUpdateCollection } from '../../api/update-collection';
import type { BrowserItem } from '../../utils/browser-items';
import { canMoveFolderInto } from '../../utils/folder-tree';

/** What was refused, before the API's reason ("Not renamed: A folder named “Shoot” is already there."). */
const refusals = defineMessages({
  rename: { id: 'collections.actions.notRenamed', defaultMessage: 'Not renamed: {problem}' },
  move: { id: 'collections.actions.notMoved', defaultMessage: 'Not moved: {problem}' },
  remove: { id: 'collections.actions.notDeleted', defaultMessage: 'Not deleted: {problem}' },
  cover: { id: 'collections.actions.notCover', defaultMessage: 'Not made the cover: {problem}' },
});

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
  const intl = useIntl();
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
    (item: BrowserItem, refusal: MessageDescriptor) => (error: unknown) => {
      const problem = error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
      const message = intl.formatMessage(refusal, { problem });
      setErrors((current) => new Map(current).set(item.key, message));
      announce(intl.formatMessage({ id: 'collections.actions.itemProblem', defaultMessage: '“{name}”: {problem}' }, { name: item.name, problem: message }));
    },
    [announce, intl],
  );

  const rename = useCallback(
    (item: BrowserItem, name: string) => {
      clearErrors([item]);
      if (name === item.name) return;
      const renamed = item.kind === 'folder' ? updateFolder({ folderId: item.id, name }) : updateFile({ fileId: item.id, name });
      renamed.catch(failed(item, refusals.rename));
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
          updateFolder({ folderId: item.id, parentId: folderId }).catch(failed(item, refusals.move));
        } else {
          if (item.file.folderId === folderId) continue;
          updateFile({ fileId: item.id, folderId }).catch(failed(item, refusals.move));
        }
        moved += 1;
      }
      if (moved > 0)
        announce(
          intl.formatMessage(
            { id: 'collections.actions.moved', defaultMessage: '{count, plural, one {Moved # item to “{name}”.} other {Moved # items to “{name}”.}}' },
            { count: moved, name: destinationName },
          ),
        );
    },
    [announce, clearErrors, failed, folders, intl, updateFile, updateFolder],
  );

  const remove = useCallback(
    (items: BrowserItem[]) => {
      clearErrors(items);
      const files = items.filter((item) => item.kind === 'file');
      if (files.length > 0) {
        deleteFiles(files.map((item) => item.id)).catch((error: unknown) => files.forEach((item) => failed(item, refusals.remove)(error)));
      }
      for (const item of items) if (item.kind === 'folder') deleteFolder(item.id).catch(failed(item, refusals.remove));
      announce(
        intl.formatMessage(
          { id: 'collections.actions.trashed', defaultMessage: '{count, plural, one {Moved # item to the trash.} other {Moved # items to the trash.}}' },
          { count: items.length },
        ),
      );
    },
    [announce, clearErrors, deleteFiles, deleteFolder, failed, intl],
  );

  const setCover = useCallback(
    (item: BrowserItem) => {
      clearErrors([item]);
      updateCollection(
        { coverFileId: item.id },
        {
          onError: failed(item, refusals.cover),
          onSuccess: () => announce(intl.formatMessage({ id: 'collections.actions.coverSet', defaultMessage: '“{name}” is the cover now.' }, { name: item.name })),
        },
      );
    },
    [announce, clearErrors, failed, intl, updateCollection],
  );

  return { errors, rename, move, remove, setCover };
}
