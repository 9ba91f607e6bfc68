import { infiniteQueryOptions, queryOptions, useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { TransferSummary } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export const transferListStatuses = ['draft', 'sent', 'active', 'expired', 'removed', 'infected'] as const;
export type TransferListStatus = (typeof transferListStatuses)[number];
export const transferListSorts = ['size', 'expiry'] as const;
export type TransferListSort = (typeof transferListSorts)[number];

/** The list's filters as the URL holds them: '' means "any" status, and newest first. */
export interface TransferListFilters {
  status: TransferListStatus | '';
  q: string;
  sort: TransferListSort | '';
  /** `me`: only the signed-in member's own; '' everyone's. */
  sentBy: 'me' | '';
}

export interface TransferListPage {
  transfers: TransferSummary[];
  nextCursor: string | null;
}

export const transferPageSize = 25;

export function getTransfers(filters: TransferListFilters & { cursor?: string | null; limit?: number }, signal?: AbortSignal): Promise<TransferListPage> {
  const params = new URLSearchParams({ limit: String(filters.limit ?? transferPageSize) });
  if (filters.cursor) params.set('cursor', filters.cursor);
  if (filters.status) params.set('status', filters.status);
  if (filters.q) params.set('q', filters.q);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.sentBy) params.set('sentBy', filters.sentBy);
  return v1Fetch<TransferListPage>(`/transfers?${params}`, { signal });
}

/** In the filters' order (newest first by default), one page per cursor. */
export function transfersInfiniteQueryOptions(filters: TransferListFilters) {
  return infiniteQueryOptions({
    queryKey: transferKeys.list({ status: filters.status, q: filters.q, sort: filters.sort, sentBy: filters.sentBy }),
    queryFn: ({ pageParam, signal }) => getTransfers({ ...filters, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useTransfers(filters: TransferListFilters) {
  return useSuspenseInfiniteQuery(transfersInfiniteQueryOptions(filters));
}

/** Unsent drafts, listed apart above the sent transfers: a few at most (they are deleted after 24 hours). */
export function draftsQueryOptions(filters: Pick<TransferListFilters, 'q' | 'sort' | 'sentBy'>) {
  return queryOptions({
    queryKey: transferKeys.list({ status: 'draft', q: filters.q, sort: filters.sort, sentBy: filters.sentBy, limit: 100 }),
    queryFn: ({ signal }) => getTransfers({ status: 'draft', q: filters.q, sort: filters.sort, sentBy: filters.sentBy, limit: 100 }, signal),
  });
}

export function useDrafts(filters: Pick<TransferListFilters, 'q' | 'sort' | 'sentBy'>) {
  return useSuspenseQuery(draftsQueryOptions(filters));
}
