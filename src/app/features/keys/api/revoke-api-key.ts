import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { apiKeysQueryKey } from './get-api-keys';

export function revokeApiKey(id: string): Promise<void> {
  return dashboardFetch<void>(`/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (_nothing, id) => {
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryKey, (keys) => keys?.filter((key) => key.id !== id));
      return queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
  });
}
