import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { OutboxResponse } from '../../../../contract/mail';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const outboxQueryKey = [...userDataRoot, 'outbox', 'list'] as const;

export function getOutbox(): Promise<OutboxResponse> {
  return dashboardFetch<OutboxResponse>('/mail');
}

/** Always stale: a message written a moment ago should show up the next time the page is opened. */
export function outboxQueryOptions() {
  return queryOptions({ queryKey: outboxQueryKey, queryFn: getOutbox, staleTime: 0 });
}

export function useOutbox() {
  return useSuspenseQuery(outboxQueryOptions());
}
