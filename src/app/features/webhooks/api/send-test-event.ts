import { useMutation } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';

export function sendTestEvent(id: string): Promise<{ deliveryId: string }> {
  return v1Fetch<{ deliveryId: string }>(`/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST' });
}

/** Queues a `webhook.test` event; it is delivered in the background, so the caller watches for it. */
export function useSendTestEvent(id: string) {
  return useMutation({ mutationFn: () => sendTestEvent(id) });
}
