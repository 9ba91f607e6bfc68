import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { UploadRequest } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

export async function getUploadRequest(id: string, signal?: AbortSignal): Promise<UploadRequest> {
  return (await v1Fetch<{ request: UploadRequest }>(`/requests/${encodeURIComponent(id)}`, { signal })).request;
}

export function uploadRequestQueryOptions(id: string) {
  return queryOptions({ queryKey: requestKeys.detail(id), queryFn: ({ signal }) => getUploadRequest(id, signal) });
}

export function useUploadRequest(id: string) {
  return useSuspenseQuery(uploadRequestQueryOptions(id));
}
