import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookDeletedSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { deleteWebhook } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const deleteWebhookRoute = v1Route({
  method: 'delete',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description:
    'Deletes the endpoint with its pending deliveries, delivery history and pull feed. A delivery already on the wire may still arrive. A repeated delete answers `404 not_found`.',
  scope: 'webhooks:write',
  role: 'admin',
  request: { params: WebhookIdParams },
  responses: { 200: json(WebhookDeletedSchema, 'The endpoint is gone') },
});

export function registerDeleteWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteWebhookRoute, async (c) => {
    return c.json(await deleteWebhook(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
