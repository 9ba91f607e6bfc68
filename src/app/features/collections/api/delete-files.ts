import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListedCollectionFile } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

/** The API takes up to this many ids per request. */
const MAX_IDS_PER_REQUEST = 500;

/** Moves the files to the collection's trash (restorable for 30 days); ids of files already gone are skipped. */
export async function deleteFiles(id: string, fileIds: string[]): Promise<{ deleted: number }> {
  let deleted = 0;
  for (let i = 0; i < fileIds.length; i += MAX_IDS_PER_REQUEST) {
    const batch = fileIds.slice(i, i + MAX_IDS_PER_REQUEST);
    deleted += (await v1Fetch<{ deleted: number }>(`/collections/${encodeURIComponent(id)}/files`, { method: 'DELETE', json: { fileIds: batch } })).deleted;
  }
  return { deleted };
}

/** Optimistic: the files go at once and come back if the server refuses. */
export function useDeleteFiles(id: string) {
  const queryClient = useQueryClient();
  const key = collectionKeys.files(id);
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (fileIds: string[]) => deleteFiles(id, fileIds),
    onMutate: async (fileIds) => {
      await queryClient.cancelQueries({ queryKey: key });
      const ids = new Set(fileIds);
      const removed = queryClient.getQueryData<ListedCollectionFile[]>(key)?.filter((f) => ids.has(f.id)) ?? [];
      queryClient.setQueryData<ListedCollectionFile[]>(key, (files) => files?.filter((f) => !ids.has(f.id)));
      return { removed };
    },
    onError: (_error, _fileIds, context) => {
      if (!context) return;
      queryClient.setQueryData<ListedCollectionFile[]>(
        key,
        (files) => files && [...files.filter((f) => !context.removed.some((r) => r.id === f.id)), ...context.removed],
      );
    },
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
