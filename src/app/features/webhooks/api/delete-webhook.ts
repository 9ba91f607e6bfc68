import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { WebhookEndpoint } from './types';

export function deleteWebhook(id: string): Promise<void> {
  return v1Fetch<void>(`/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteWebhook(id),
    onSuccess: () => {
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.list, (list) => list?.filter((item) => item.id !== id));
      queryClient.removeQueries({ queryKey: webhookKeys.detail(id) });
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) });
      queryClient.removeQueries({ queryKey: webhookKeys.events(id) });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    },
  });
}
