import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DownloadLinksSchema } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export type DownloadLinks = z.infer<typeof DownloadLinksSchema>;

export function getDownloadLinks(id: string, signal?: AbortSignal): Promise<DownloadLinks> {
  return v1Fetch<DownloadLinks>(`/transfers/${encodeURIComponent(id)}/download-links`, { signal });
}

/** Signed URLs expire: fetched only when asked for, and never served from an old cache entry. */
export function downloadLinksQueryOptions(id: string) {
  return queryOptions({
    queryKey: transferKeys.downloadLinks(id),
    queryFn: ({ signal }) => getDownloadLinks(id, signal),
    staleTime: 0,
    gcTime: 0,
  });
}

export function useDownloadLinks(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...downloadLinksQueryOptions(id), enabled });
}
