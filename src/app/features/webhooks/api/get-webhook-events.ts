import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { PullEventsPage } from './types';

/** The largest page the API serves. */
export const pullPageSize = 500;
/** Pages read one after the other when the page opens, so the newest events show (up to 5,000). */
export const pullPagesReadAtOnce = 10;

export function getWebhookEvents(id: string, cursor: string | null, signal?: AbortSignal): Promise<PullEventsPage> {
  const params = new URLSearchParams({ limit: String(pullPageSize) });
  if (cursor) params.set('cursor', cursor);
  return v1Fetch<PullEventsPage>(`/webhooks/${encodeURIComponent(id)}/events?${params}`, { signal });
}

/** A pull endpoint's feed, read from the start (oldest first); reading consumes nothing. */
export function webhookEventsQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.events(id),
    queryFn: ({ pageParam, signal }) => getWebhookEvents(id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => (lastPage.hasMore ? lastPage.nextCursor : undefined),
    // Fresh enough for the page that the loader just prefetched it for; older than that, read again.
    staleTime: 5_000,
  });
}

/** Polls while `keepPolling` says an event the user just asked for (a test) has not shown up yet. */
export function useWebhookEvents(id: string, keepPolling: (data: InfiniteData<PullEventsPage> | undefined) => boolean) {
  return useInfiniteQuery({
    ...webhookEventsQueryOptions(id),
    refetchInterval: (query) => (keepPolling(query.state.data) ? 2000 : false),
  });
}
