import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { WebhookWithSecret } from './types';

export function rotateWebhookSecret(id: string): Promise<WebhookWithSecret> {
  return v1Fetch<WebhookWithSecret>(`/webhooks/${encodeURIComponent(id)}/rotate-secret`, { method: 'POST' });
}

/** The new secret lives only in this mutation's state, like the one shown at creation. */
export function useRotateWebhookSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateWebhookSecret(id),
    onSuccess: ({ webhook }) => {
      queryClient.setQueryData(webhookKeys.detail(id), webhook);
    },
  });
}
