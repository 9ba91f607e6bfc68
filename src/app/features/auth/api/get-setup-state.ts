import { queryOptions } from '@tanstack/react-query';
import type { SetupState } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

export const setupStateQueryKey = ['setup'] as const;

export function getSetupState(invite?: string): Promise<SetupState> {
  return dashboardFetch<SetupState>(invite ? `/setup?${new URLSearchParams({ invite })}` : '/setup');
}

/**
 * Whether this instance still waits for its first workspace (then visitors are offered to create
 * it), who may sign up, and, given an invitation's token, the address it was sent to.
 */
export function setupStateQueryOptions(invite?: string) {
  return queryOptions({ queryKey: invite ? [...setupStateQueryKey, invite] : setupStateQueryKey, queryFn: () => getSetupState(invite), staleTime: 60_000 });
}
