import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';

export function retryWebhookDelivery(id: string, deliveryId: string): Promise<{ deliveryId: string }> {
  return v1Fetch<{ deliveryId: string }>(
    `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
    { method: 'POST' },
  );
}

/** Sends a delivery again, same event id and body; the list then shows it queued. */
export function useRetryWebhookDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => retryWebhookDelivery(id, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
