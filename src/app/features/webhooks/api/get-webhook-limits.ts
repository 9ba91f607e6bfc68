import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Me } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

/** Same key as the settings page's `GET /me`, so both share one cache entry. */
export const webhookMeQueryKey = [...userDataRoot, 'v1', 'me'] as const;

export interface WebhookPlan {
  plan: Me['plan']['name'];
  /** Endpoints this workspace may have on its current plan. */
  endpointLimit: number;
  /** `off` on a server that bills nobody: the limits are the server's, with no plan to name. */
  billing: Me['plan']['billing'];
}

/** What the plan allows for webhooks: which events (paid ones need a paid plan) and how many endpoints. */
export function webhookPlanQueryOptions() {
  return queryOptions({
    queryKey: webhookMeQueryKey,
    queryFn: () => v1Fetch<Me>('/me'),
    select: (me): WebhookPlan => ({ plan: me.plan.name, endpointLimit: me.plan.limits.webhookEndpoints, billing: me.plan.billing }),
  });
}

export function useWebhookPlan() {
  return useSuspenseQuery(webhookPlanQueryOptions());
}
