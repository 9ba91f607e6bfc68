import { infiniteQueryOptions, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import type { TransferSummary } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export const transferListStatuses = ['draft', 'active', 'expired', 'removed', 'infected'] as const;
export type TransferListStatus = (typeof transferListStatuses)[number];

/** The list's filters as the URL holds them: '' means "any". */
export interface TransferListFilters {
  status: TransferListStatus | '';
  q: string;
}

export interface TransferListPage {
  transfers: TransferSummary[];
  nextCursor: string | null;
}

export const transferPageSize = 25;

export function getTransfers(filters: TransferListFilters & { cursor?: string | null }, signal?: AbortSignal): Promise<TransferListPage> {
  const params = new URLSearchParams({ limit: String(transferPageSize) });
  if (filters.cursor) params.set('cursor', filters.cursor);
  if (filters.status) params.set('status', filters.status);
  if (filters.q) params.set('q', filters.q);
  return v1Fetch<TransferListPage>(`/transfers?${params}`, { signal });
}

/** Newest first, one page per cursor. */
export function transfersInfiniteQueryOptions(filters: TransferListFilters) {
  return infiniteQueryOptions({
    queryKey: transferKeys.list({ status: filters.status, q: filters.q }),
    queryFn: ({ pageParam, signal }) => getTransfers({ ...filters, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useTransfers(filters: TransferListFilters) {
  return useSuspenseInfiniteQuery(transfersInfiniteQueryOptions(filters));
}
