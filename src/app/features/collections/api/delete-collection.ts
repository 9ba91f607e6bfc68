import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionSummary } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export async function deleteCollection(id: string): Promise<void> {
  await v1Fetch<{ deleted: true }>(`/collections/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Drops the collection from the list at once and forgets what is cached about it. `onDeleted`
 * runs first: the card (or page) that asked may be gone once the list changes, and with it any
 * callback given to `mutate`. Queries a page still shows are left to expire with it, so it is not
 * asked to read a collection that no longer exists while it navigates away.
 */
export function useDeleteCollection(id: string, { onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteCollection(id),
    onSuccess: () => {
      onDeleted?.();
      queryClient.setQueryData<CollectionSummary[]>(collectionKeys.list, (list) => list?.filter((item) => item.id !== id));
      for (const queryKey of [collectionKeys.detail(id), collectionKeys.files(id), collectionKeys.folders(id), collectionKeys.guests(id)]) {
        queryClient.removeQueries({ queryKey, type: 'inactive' });
      }
      queryClient.removeQueries({ queryKey: [...collectionKeys.all, 'download-links', id], type: 'inactive' });
      return queryClient.invalidateQueries({ queryKey: collectionKeys.list });
    },
  });
}
