import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookResponseSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { getWebhook } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const getWebhookRoute = v1Route({
  method: 'get',
  path: '/webhooks/{id}',
  operationId: 'getWebhook',
  tags: ['Webhooks'],
  summary: 'Read a webhook endpoint',
  description: 'One endpoint of the workspace, without its secret.',
  scope: 'webhooks:read',
  role: 'admin',
  request: { params: WebhookIdParams },
  responses: { 200: json(WebhookResponseSchema, 'The endpoint') },
});

export function registerGetWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(getWebhookRoute, async (c) => {
    return c.json({ webhook: await getWebhook(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
}
