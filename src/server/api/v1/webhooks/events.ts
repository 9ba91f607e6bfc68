import type { OpenAPIHono } from '@hono/zod-openapi';
import { PullEventsQuerySchema, PullEventsResponseSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { readEventFeed } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const listWebhookEventsRoute = v1Route({
  method: 'get',
  path: '/webhooks/{id}/events',
  operationId: 'listWebhookEvents',
  tags: ['Webhooks'],
  summary: 'Read a pull endpoint',
  description: [
    'Oldest first (`limit` 1 to 500, default 100). Reading consumes nothing: the same cursor gives the same events again, so a reader stores `nextCursor` only after it has processed the page. `nextCursor` is returned on every page, even when nothing is new; `hasMore` says whether more can be read right now. An event that commits while you read is never skipped: it comes after the cursor you hold.',
    'Events are kept 30 days. When a transfer expires or is revoked, its earlier `transfer.ready`, `transfer.expiring` and `transfer.downloaded` events leave the feed. A push endpoint has no feed: `409 conflict` with `details.reason` `push_endpoint`.',
  ].join('\n\n'),
  scope: 'webhooks:read',
  role: 'admin',
  request: { params: WebhookIdParams, query: PullEventsQuerySchema },
  responses: {
    200: json(PullEventsResponseSchema, 'A page of events'),
    409: { description: '`conflict` with `details.reason` `push_endpoint`: events of a push endpoint are delivered, not read.' },
  },
});

export function registerListWebhookEvents(app: OpenAPIHono<AppEnv>) {
  app.openapi(listWebhookEventsRoute, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await readEventFeed(c.var.services, c.var.caller, c.req.valid('param').id, cursor, limit), 200);
  });
}
