import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { changeFolder, type FolderChange } from '../utils/folder-tree';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

/** Renames and/or moves a folder with everything in it; into its own subtree is `400` naming `parentId`, a name taken `409`. */
export async function updateFolder(id: string, { folderId, ...change }: FolderChange): Promise<Folder> {
  const path = `/collections/${encodeURIComponent(id)}/folders/${encodeURIComponent(folderId)}`;
  return (await v1Fetch<{ folder: Folder }>(path, { method: 'PATCH', json: change })).folder;
}

/**
 * Optimistic: the tree changes at once (paths under the folder with it). A refusal changes the
 * folder back, and the caller shows the API's message next to it.
 */
export function useUpdateFolder(id: string) {
  const queryClient = useQueryClient();
  const key = collectionKeys.folders(id);
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (change: FolderChange) => updateFolder(id, change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Folder[]>(key)?.find((f) => f.id === change.folderId);
      queryClient.setQueryData<Folder[]>(key, (folders) => folders && changeFolder(folders, change));
      return { before };
    },
    onError: (_error, change, context) => {
      const before = context?.before;
      if (!before) return;
      const undo: FolderChange = {
        folderId: before.id,
        ...(change.name !== undefined ? { name: before.name } : {}),
        ...(change.parentId !== undefined ? { parentId: before.parentId } : {}),
      };
      queryClient.setQueryData<Folder[]>(key, (folders) => folders && changeFolder(folders, undo));
    },
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
