import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookDeliveryIdSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { sendTestEvent } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const testWebhookRoute = v1Route({
  method: 'post',
  path: '/webhooks/{id}/test',
  operationId: 'testWebhook',
  tags: ['Webhooks'],
  summary: 'Send a test event',
  description:
    'Emits a `webhook.test` event (`data`: `endpoint` `{ id }` and a `message`) to this endpoint only, whatever it subscribes to, and answers at once with the delivery id; the delivery follows within a second or so, signed and retried like any other. It is sent even while the endpoint is paused. On a pull endpoint it is added to the feed.',
  scope: 'webhooks:write',
  role: 'admin',
  request: { params: WebhookIdParams },
  responses: { 202: json(WebhookDeliveryIdSchema, 'The test delivery is queued') },
});

export function registerTestWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(testWebhookRoute, async (c) => {
    return c.json(await sendTestEvent(c.var.services, c.var.caller, c.req.valid('param').id), 202);
  });
}
