import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrashItem } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

const trashPath = (id: string, itemId?: string) => `/collections/${encodeURIComponent(id)}/trash${itemId ? `/${encodeURIComponent(itemId)}` : ''}`;

/** What the collection's trash holds, the latest first. */
export async function getTrash(id: string, signal?: AbortSignal): Promise<TrashItem[]> {
  return (await v1Fetch<{ items: TrashItem[] }>(trashPath(id), { signal })).items;
}

export function trashQueryOptions(id: string) {
  return queryOptions({ queryKey: collectionKeys.trash(id), queryFn: ({ signal }) => getTrash(id, signal) });
}

/** Read when the trash is opened (and kept fresh by every change to the collection), never before. */
export function useTrash(id: string, enabled: boolean) {
  return useQuery({ ...trashQueryOptions(id), enabled });
}

/** Brings an item back where it was (or to the top level); the collection's files and folders re-read after. */
export function useRestoreFromTrash(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (itemId: string) => v1Fetch<{ restored: { kind: 'file' | 'folder'; id: string; folderId: string | null } }>(`${trashPath(id, itemId)}/restore`, { method: 'POST' }),
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}

/** Deletes an item of the trash for good, bytes and all. */
export function useDeleteFromTrash(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (itemId: string) => v1Fetch<{ deleted: true }>(trashPath(id, itemId), { method: 'DELETE' }),
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
