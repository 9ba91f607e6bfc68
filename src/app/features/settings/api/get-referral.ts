import { queryOptions } from '@tanstack/react-query';
import type { Referral } from '../../../../contract/me';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

export const referralQueryKey = [...userDataRoot, 'v1', 'me', 'referral'] as const;

export function getReferral(): Promise<Referral> {
  return v1Fetch<Referral>('/me/referral');
}

export function referralQueryOptions() {
  return queryOptions({ queryKey: referralQueryKey, queryFn: getReferral, staleTime: 5 * 60_000 });
}
