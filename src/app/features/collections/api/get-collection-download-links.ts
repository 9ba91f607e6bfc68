import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DownloadLinksSchema } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export type CollectionDownloadLinks = z.infer<typeof DownloadLinksSchema>;

/** Signed URLs (an hour) for every complete file and a zip of them: of the whole collection, or of one folder and everything under it. */
export function getCollectionDownloadLinks(id: string, folderId: string | null, signal?: AbortSignal): Promise<CollectionDownloadLinks> {
  const query = folderId === null ? '' : `?folderId=${encodeURIComponent(folderId)}`;
  return v1Fetch<CollectionDownloadLinks>(`/collections/${encodeURIComponent(id)}/download-links${query}`, { signal });
}

/** Signed URLs expire: fetched when a download is asked for (`queryClient.fetchQuery`), never served from an old cache entry. */
export function collectionDownloadLinksQueryOptions(id: string, folderId: string | null) {
  return queryOptions({
    queryKey: collectionKeys.downloadLinks(id, folderId),
    queryFn: ({ signal }) => getCollectionDownloadLinks(id, folderId, signal),
    staleTime: 0,
    gcTime: 0,
  });
}
