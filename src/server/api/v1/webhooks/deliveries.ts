import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookDeliveryListQuerySchema, WebhookDeliveryListSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { listDeliveries } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';


export const listWebhookDeliveriesRoute = v1Route({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'List delivery attempts',
  description:
    'The 100 most recent attempts, newest first: time, attempt number, status code, error, duration, the next retry (when one is scheduled), the body sent and the start of the answer. `pending` lists deliveries waiting for an attempt. Kept 30 days. A pull endpoint has no attempts.',
  scope: 'webhooks:read',
  role: 'admin',
  request: { params: WebhookIdParams, query: WebhookDeliveryListQuerySchema },
  responses: { 200: json(WebhookDeliveryListSchema, 'Attempts and waiting deliveries') },
});

export function registerListWebhookDeliveries(app: OpenAPIHono<AppEnv>) {
  app.openapi(listWebhookDeliveriesRoute, async (c) => {
    return c.json(await listDeliveries(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('query').deliveryId), 200);
  });
}
