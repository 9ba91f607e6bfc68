import { queryOptions, useQuery } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { WebhookDeliveryList } from './types';

export function getWebhookDeliveries(id: string, signal?: AbortSignal): Promise<WebhookDeliveryList> {
  return v1Fetch<WebhookDeliveryList>(`/webhooks/${encodeURIComponent(id)}/deliveries`, { signal });
}

export const deliveryPollMs = 2000;

/** Recent attempts (newest first) and what is still queued. */
export function webhookDeliveriesQueryOptions(id: string) {
  return queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal }) => getWebhookDeliveries(id, signal),
    // Fresh enough for the page that the loader just prefetched it for; older than that, read again.
    staleTime: 5_000,
  });
}

/**
 * Polls while anything is queued, and while `keepPolling` says a delivery the user just asked
 * for (a test, a retry) has not shown up yet.
 */
export function useWebhookDeliveries(id: string, keepPolling: (data: WebhookDeliveryList | undefined) => boolean) {
  return useQuery({
    ...webhookDeliveriesQueryOptions(id),
    refetchInterval: (query) => {
      const data = query.state.data;
      return (data && data.pending.length > 0) || keepPolling(data) ? deliveryPollMs : false;
    },
  });
}
