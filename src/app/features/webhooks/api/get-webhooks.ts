import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { WebhookEndpoint } from './types';

export async function getWebhooks(signal?: AbortSignal): Promise<WebhookEndpoint[]> {
  const { webhooks } = await v1Fetch<{ webhooks: WebhookEndpoint[] }>('/webhooks', { signal });
  return webhooks;
}

/** Oldest first, as the API lists them. */
export function webhooksQueryOptions() {
  return queryOptions({ queryKey: webhookKeys.list, queryFn: ({ signal }) => getWebhooks(signal) });
}

export function useWebhooks() {
  return useSuspenseQuery(webhooksQueryOptions());
}
