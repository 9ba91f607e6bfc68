import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { UploadRequest } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

export async function getUploadRequests(signal?: AbortSignal): Promise<UploadRequest[]> {
  return (await v1Fetch<{ requests: UploadRequest[] }>('/requests', { signal })).requests;
}

/** Every upload request of the workspace, newest first (the API gives them all at once; readable on the free plan too). */
export function uploadRequestsQueryOptions() {
  return queryOptions({ queryKey: requestKeys.list, queryFn: ({ signal }) => getUploadRequests(signal) });
}

export function useUploadRequests() {
  return useSuspenseQuery(uploadRequestsQueryOptions());
}
