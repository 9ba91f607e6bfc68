import { queryOptions } from '@tanstack/react-query';
import type { SetupState } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

export const setupStateQueryKey = ['setup'] as const;

export function getSetupState(): Promise<SetupState> {
  return dashboardFetch<SetupState>('/setup');
}

/** Whether this instance still waits for its first workspace (then visitors are offered to create it). */
export function setupStateQueryOptions() {
  return queryOptions({ queryKey: setupStateQueryKey, queryFn: getSetupState, staleTime: 60_000 });
}
