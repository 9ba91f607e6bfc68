import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder, ListedCollectionFile } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { byPath, subtreeIds } from '../utils/folder-tree';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

/** Moves a folder with its subfolders and all their files to the collection's trash (restorable for 30 days). */
export function deleteFolder(id: string, folderId: string): Promise<{ deleted: true }> {
  return v1Fetch<{ deleted: true }>(`/collections/${encodeURIComponent(id)}/folders/${encodeURIComponent(folderId)}`, { method: 'DELETE' });
}

/** Optimistic: the folder, what is under it and their files go at once, and come back if the server refuses. */
export function useDeleteFolder(id: string) {
  const queryClient = useQueryClient();
  const foldersKey = collectionKeys.folders(id);
  const filesKey = collectionKeys.files(id);
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (folderId: string) => deleteFolder(id, folderId),
    onMutate: async (folderId) => {
      await Promise.all([queryClient.cancelQueries({ queryKey: foldersKey }), queryClient.cancelQueries({ queryKey: filesKey })]);
      const gone = subtreeIds(queryClient.getQueryData<Folder[]>(foldersKey) ?? [], folderId);
      const folders = queryClient.getQueryData<Folder[]>(foldersKey)?.filter((f) => gone.has(f.id)) ?? [];
      const files = queryClient.getQueryData<ListedCollectionFile[]>(filesKey)?.filter((f) => f.folderId !== null && gone.has(f.folderId)) ?? [];
      queryClient.setQueryData<Folder[]>(foldersKey, (list) => list?.filter((f) => !gone.has(f.id)));
      queryClient.setQueryData<ListedCollectionFile[]>(filesKey, (list) => list?.filter((f) => f.folderId === null || !gone.has(f.folderId)));
      return { folders, files };
    },
    onError: (_error, _folderId, context) => {
      if (!context) return;
      queryClient.setQueryData<Folder[]>(
        foldersKey,
        (list) => list && [...list.filter((f) => !context.folders.some((g) => g.id === f.id)), ...context.folders].sort(byPath),
      );
      queryClient.setQueryData<ListedCollectionFile[]>(
        filesKey,
        (list) => list && [...list.filter((f) => !context.files.some((g) => g.id === f.id)), ...context.files],
      );
    },
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
