import type { QueryClient } from '@tanstack/react-query';
import { collectionKeys } from './query-keys';

/**
 * Every change to a collection's files and folders runs under this mutation key, so that a burst of
 * them (moving 40 selected files is 40 requests) reads the collection again once, after the last:
 * refetching in between would overwrite the optimistic state of the changes still under way.
 */
export const collectionChangesKey = (id: string) => [...collectionKeys.all, 'changes', id] as const;

/** Called as each change settles: the last one re-reads what changes touch (files, folders, the collection's counts, the grid, the trash). */
export function settleCollectionChange(queryClient: QueryClient, id: string): Promise<unknown> | undefined {
  // The change settling is still counted.
  if (queryClient.isMutating({ mutationKey: collectionChangesKey(id) }) > 1) return undefined;
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: collectionKeys.files(id) }),
    queryClient.invalidateQueries({ queryKey: collectionKeys.folders(id) }),
    queryClient.invalidateQueries({ queryKey: collectionKeys.detail(id) }),
    queryClient.invalidateQueries({ queryKey: collectionKeys.list }),
    queryClient.invalidateQueries({ queryKey: collectionKeys.trash(id) }),
  ]);
}
