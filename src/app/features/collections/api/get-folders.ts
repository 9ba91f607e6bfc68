import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Folder } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

/** Every folder of the collection, depth first by path. */
export async function getFolders(id: string, signal?: AbortSignal): Promise<Folder[]> {
  return (await v1Fetch<{ folders: Folder[] }>(`/collections/${encodeURIComponent(id)}/folders`, { signal })).folders;
}

export function foldersQueryOptions(id: string) {
  return queryOptions({ queryKey: collectionKeys.folders(id), queryFn: ({ signal }) => getFolders(id, signal) });
}

export function useFolders(id: string) {
  return useSuspenseQuery(foldersQueryOptions(id));
}
