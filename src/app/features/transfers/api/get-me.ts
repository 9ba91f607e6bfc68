import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Me } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

/** The same key as the settings page's: both read one cached account (plan and its limits). */
export const meQueryKey = [...userDataRoot, 'v1', 'me'] as const;

export function getMe(): Promise<Me> {
  return v1Fetch<Me>('/me');
}

export function meQueryOptions() {
  return queryOptions({ queryKey: meQueryKey, queryFn: getMe });
}

export function useMe() {
  return useSuspenseQuery(meQueryOptions());
}
