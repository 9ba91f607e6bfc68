import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { CreateWebhookRequest, WebhookEndpoint, WebhookWithSecret } from './types';

export function createWebhook(input: CreateWebhookRequest): Promise<WebhookWithSecret> {
  return v1Fetch<WebhookWithSecret>('/webhooks', { method: 'POST', json: input });
}

/** The response's `secret` lives only in this mutation's state: never in the query cache. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: ({ webhook }) => {
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.list, (list) => (list ? [...list, webhook] : list));
      queryClient.setQueryData(webhookKeys.detail(webhook.id), webhook);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list }),
  });
}
