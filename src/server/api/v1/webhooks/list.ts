import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookListSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { listWebhooks } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const listWebhooksRoute = v1Route({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: 'List webhook endpoints',
  description: 'Every endpoint of the workspace (at most ten), oldest first, in one response. Secrets are never listed.',
  scope: 'webhooks:read',
  role: 'admin',
  responses: { 200: json(WebhookListSchema, 'The endpoints') },
});

export function registerListWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(listWebhooksRoute, async (c) => {
    return c.json({ webhooks: await listWebhooks(c.var.services, c.var.caller) }, 200);
  });
}
