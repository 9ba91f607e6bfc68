import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Me } from '../../contract/me';
import { userDataRoot } from './query-keys';
import { v1Fetch } from './v1-client';

/** The account as the public API sees it (`GET /me`): workspace and its domain, plan and limits, usage, scanning. One cache entry for every page. */
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

/** The workspace's own domain (set by the server's operator), or null. */
export function useWorkspaceDomain(): string | null {
  return useSuspenseQuery({ ...meQueryOptions(), select: (me) => me.workspace.customDomain }).data;
}

/** Whether this server checks files for viruses before they can be downloaded. */
export function useScanningEnabled(): boolean {
  return useSuspenseQuery({ ...meQueryOptions(), select: (me) => me.scanning.enabled }).data;
}
