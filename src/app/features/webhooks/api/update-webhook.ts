import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { UpdateWebhookRequest, WebhookEndpoint } from './types';

export async function updateWebhook(id: string, input: UpdateWebhookRequest): Promise<WebhookEndpoint> {
  const { webhook } = await v1Fetch<{ webhook: WebhookEndpoint }>(`/webhooks/${encodeURIComponent(id)}`, { method: 'PATCH', json: input });
  return webhook;
}

/** Edits, pauses (`enabled: false`) and resumes an endpoint. */
export function useUpdateWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateWebhookRequest) => updateWebhook(id, input),
    onSuccess: (webhook) => {
      queryClient.setQueryData(webhookKeys.detail(id), webhook);
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.list, (list) => list?.map((item) => (item.id === id ? webhook : item)));
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list });
    },
  });
}
