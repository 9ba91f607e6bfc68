import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookDeliveryIdSchema } from '../../../../contract/webhooks.js';
import { newId } from '../../../core/secrets.js';
import { webhookDeliveries } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { loadEndpoint } from '../../../webhooks/endpoints.js';
import { deliveryRow, envelopeBody } from '../../../webhooks/fanout.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

const route = v1Route({
  method: 'post',
  path: '/webhooks/{id}/test',
  operationId: 'testWebhook',
  tags: ['Webhooks'],
  summary: 'Send a test event',
  description:
    'Emits a `webhook.test` event (`data`: `endpoint` `{ id }` and a `message`) to this endpoint only, whatever it subscribes to, and answers at once with the delivery id; the delivery follows within a second or so, signed and retried like any other. It is sent even while the endpoint is paused. On a pull endpoint it is added to the feed.',
  scope: 'webhooks:write',
  request: { params: WebhookIdParams },
  responses: { 202: json(WebhookDeliveryIdSchema, 'The test delivery is queued') },
});

export function registerTestWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, clock } = c.var.services;
    const ep = await loadEndpoint(db, c.var.caller.workspaceId, c.req.valid('param').id);
    const now = clock.now();
    const event = { id: newId('evt'), type: 'webhook.test', createdAt: now, data: { endpoint: { id: ep.id }, message: 'This is a test event. Your endpoint is receiving webhooks.' } };
    const row = deliveryRow({ endpointId: ep.id, push: ep.url !== null, workspaceId: ep.workspaceId, event, body: envelopeBody(event), subject: null, now, force: true });
    await db.insert(webhookDeliveries).values(row);
    return c.json({ deliveryId: row.id }, 202);
  });
}
