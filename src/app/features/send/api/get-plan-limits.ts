import { queryOptions } from '@tanstack/react-query';
import type { Me } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

/** Same key as the settings page's `GET /me`, so both share one cache entry. */
export const sendMeQueryKey = [...userDataRoot, 'v1', 'me'] as const;

export type PlanLimits = Me['plan']['limits'];

/** The plan's limits the send form needs: expiry range and the transfer size ceiling. */
export function planLimitsQueryOptions() {
  return queryOptions({ queryKey: sendMeQueryKey, queryFn: () => v1Fetch<Me>('/me'), select: (me) => me.plan.limits });
}
