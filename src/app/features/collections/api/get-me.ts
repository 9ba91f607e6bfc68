import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Me } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

/** The same key as the settings and transfer pages': one cached account (workspace, its domain, the plan). */
export const meQueryKey = [...userDataRoot, 'v1', 'me'] as const;

export function getMe(): Promise<Me> {
  return v1Fetch<Me>('/me');
}

export function meQueryOptions() {
  return queryOptions({ queryKey: meQueryKey, queryFn: getMe });
}

/** The workspace's own domain (set by the server's operator), or null. */
export function useWorkspaceDomain(): string | null {
  return useSuspenseQuery({ ...meQueryOptions(), select: (me) => me.workspace.customDomain }).data;
}
