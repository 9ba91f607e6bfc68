import { queryOptions } from '@tanstack/react-query';
import type { ApiKey } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const apiKeysQueryKey = [...userDataRoot, 'api-keys'] as const;

export async function getApiKeys(): Promise<ApiKey[]> {
  const { keys } = await dashboardFetch<{ keys: ApiKey[] }>('/keys');
  return keys;
}

export function apiKeysQueryOptions() {
  return queryOptions({ queryKey: apiKeysQueryKey, queryFn: getApiKeys });
}
