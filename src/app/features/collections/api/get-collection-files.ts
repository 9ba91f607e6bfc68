import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { ListedCollectionFile } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

/** Every file of the collection whatever its folder, each with its preview's signed URL (null without one). */
export async function getCollectionFiles(id: string, signal?: AbortSignal): Promise<ListedCollectionFile[]> {
  return (await v1Fetch<{ files: ListedCollectionFile[] }>(`/collections/${encodeURIComponent(id)}/files?thumbnails=true`, { signal })).files;
}

/** Preview URLs last an hour: the list is read again well before they lapse, even on a page left open. */
const PREVIEW_REFRESH_MS = 30 * 60_000;

/**
 * All files at once (no limit): 2,500 rows of data are small, and having them all makes sorting,
 * selecting and moving local; the browser virtualises what it renders.
 */
export function collectionFilesQueryOptions(id: string) {
  return queryOptions({
    queryKey: collectionKeys.files(id),
    queryFn: ({ signal }) => getCollectionFiles(id, signal),
    refetchInterval: PREVIEW_REFRESH_MS,
  });
}

export function useCollectionFiles(id: string) {
  return useSuspenseQuery(collectionFilesQueryOptions(id));
}
