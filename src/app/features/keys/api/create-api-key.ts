import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, CreateApiKeyRequest, CreateApiKeyResponse } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { apiKeysQueryKey } from './get-api-keys';

export function createApiKey(input: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
  return dashboardFetch<CreateApiKeyResponse>('/keys', { method: 'POST', json: input });
}

/** The response's `secret` lives only in this mutation's state: never in the query cache. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: ({ key }) => {
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryKey, (keys) => (keys ? [...keys, key] : keys));
      return queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
  });
}
