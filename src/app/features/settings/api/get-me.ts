import { queryOptions } from '@tanstack/react-query';
import type { Me } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

export const meQueryKey = [...userDataRoot, 'v1', 'me'] as const;

export function getMe(): Promise<Me> {
  return v1Fetch<Me>('/me');
}

/** The account as the public API sees it: workspace, plan and limits, this month's usage. */
export function meQueryOptions() {
  return queryOptions({ queryKey: meQueryKey, queryFn: getMe });
}
