import { userDataRoot } from '../../../lib/query-keys';

const root = [...userDataRoot, 'v1', 'webhooks'] as const;

/** Every key of this feature, so a mutation can name exactly what it changed. */
export const webhookKeys = {
  list: [...root, 'list'] as const,
  detail: (id: string) => [...root, 'detail', id] as const,
  deliveries: (id: string) => [...root, 'deliveries', id] as const,
  events: (id: string) => [...root, 'events', id] as const,
};
