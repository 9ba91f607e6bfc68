import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { webhookKeys } from './query-keys';
import type { WebhookEndpoint } from './types';

export async function getWebhook(id: string, signal?: AbortSignal): Promise<WebhookEndpoint> {
  const { webhook } = await v1Fetch<{ webhook: WebhookEndpoint }>(`/webhooks/${encodeURIComponent(id)}`, { signal });
  return webhook;
}

export function webhookQueryOptions(id: string) {
  return queryOptions({ queryKey: webhookKeys.detail(id), queryFn: ({ signal }) => getWebhook(id, signal) });
}

export function useWebhook(id: string) {
  return useSuspenseQuery(webhookQueryOptions(id));
}
