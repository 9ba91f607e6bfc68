import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Submission } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

export async function getSubmissions(requestId: string, signal?: AbortSignal): Promise<Submission[]> {
  return (await v1Fetch<{ submissions: Submission[] }>(`/requests/${encodeURIComponent(requestId)}/submissions`, { signal })).submissions;
}

/** While a submission is still uploading, the list is read again now and then, so it shows as complete without a reload. */
const WHILE_UPLOADING_MS = 15_000;

/** Every submission of the request, newest first, each with up to 500 of its files. */
export function submissionsQueryOptions(requestId: string) {
  return queryOptions({
    queryKey: requestKeys.submissions(requestId),
    queryFn: ({ signal }) => getSubmissions(requestId, signal),
    refetchInterval: (query) => (query.state.data?.some((s) => s.status === 'uploading') ? WHILE_UPLOADING_MS : false),
  });
}

export function useSubmissions(requestId: string) {
  return useSuspenseQuery(submissionsQueryOptions(requestId));
}
