import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookDeliveryIdSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { redeliver } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookDeliveryParams } from './params.js';

export const retryWebhookDeliveryRoute = v1Route({
  method: 'post',
  path: '/webhooks/{id}/deliveries/{deliveryId}/retry',
  operationId: 'retryWebhookDelivery',
  tags: ['Webhooks'],
  summary: 'Send a delivery again',
  description:
    'Queues one more attempt of this delivery now, with the same event id, delivery id and body (signed afresh, with the current secret), whatever its state, even while the endpoint is paused. It does not change the retry schedule or count towards pausing. A pull endpoint has nothing to resend: `409 conflict` with `details.reason` `pull_endpoint`.',
  scope: 'webhooks:write',
  role: 'admin',
  request: { params: WebhookDeliveryParams },
  responses: {
    202: json(WebhookDeliveryIdSchema, 'The attempt is queued'),
    409: { description: '`conflict` with `details.reason` `pull_endpoint`: pull deliveries are read, not sent.' },
  },
});

export function registerRetryWebhookDelivery(app: OpenAPIHono<AppEnv>) {
  app.openapi(retryWebhookDeliveryRoute, async (c) => {
    const { id, deliveryId } = c.req.valid('param');
    return c.json(await redeliver(c.var.services, c.var.caller, id, deliveryId), 202);
  });
}
