import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import { isApiRequestError } from '../../../lib/api-error';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { sessionQueryKey } from '../../../lib/query-keys';

export { sessionQueryKey };

/** The signed-in user and workspace, or null when nobody is signed in (401). */
export async function getSession(): Promise<Session | null> {
  try {
    return await dashboardFetch<Session>('/session');
  } catch (error) {
    if (isApiRequestError(error) && error.status === 401) return null;
    throw error;
  }
}

export function sessionQueryOptions() {
  return queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 });
}

/** The session inside the signed-in area, where `_authed` has already made sure there is one. */
export function useSession(): Session {
  const { data } = useSuspenseQuery(sessionQueryOptions());
  if (!data) throw new Error('useSession is only for pages behind sign-in');
  return data;
}

/**
 * Whether this server bills its workspaces (its `BILLING` setting). When it does not, every
 * workspace has the paid plan's features and the app shows no plan, credit, price or referral months.
 */
export function useBillingOn(): boolean {
  return useSession().billing === 'on';
}
