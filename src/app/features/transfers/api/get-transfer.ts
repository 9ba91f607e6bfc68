import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export function getTransfer(id: string, signal?: AbortSignal): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(id)}`, { signal });
}

export function transferQueryOptions(id: string) {
  return queryOptions({ queryKey: transferKeys.detail(id), queryFn: ({ signal }) => getTransfer(id, signal) });
}

export function useTransfer(id: string) {
  return useSuspenseQuery(transferQueryOptions(id));
}
