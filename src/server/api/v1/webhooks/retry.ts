import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { WebhookDeliveryIdSchema } from '../../../../contract/webhooks.js';
import { webhookDeliveries } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { loadEndpoint } from '../../../webhooks/endpoints.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookDeliveryParams } from './params.js';

const route = v1Route({
  method: 'post',
  path: '/webhooks/{id}/deliveries/{deliveryId}/retry',
  operationId: 'retryWebhookDelivery',
  tags: ['Webhooks'],
  summary: 'Send a delivery again',
  description:
    'Queues one more attempt of this delivery now, with the same event id, delivery id and body (signed afresh, with the current secret), whatever its state, even while the endpoint is paused. It does not change the retry schedule or count towards pausing. A pull endpoint has nothing to resend: `409 conflict` with `details.reason` `pull_endpoint`.',
  scope: 'webhooks:write',
  request: { params: WebhookDeliveryParams },
  responses: {
    202: json(WebhookDeliveryIdSchema, 'The attempt is queued'),
    409: { description: '`conflict` with `details.reason` `pull_endpoint`: pull deliveries are read, not sent.' },
  },
});

export function registerRetryWebhookDelivery(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const { id, deliveryId } = c.req.valid('param');
    const ep = await loadEndpoint(db, c.var.caller.workspaceId, id);
    if (ep.url === null) throw new ApiError('conflict', 'A pull endpoint has no deliveries to send again.', { reason: 'pull_endpoint' });
    const [row] = await db
      .update(webhookDeliveries)
      .set({ redeliveryRequests: sql`${webhookDeliveries.redeliveryRequests} + 1` })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, ep.id), eq(webhookDeliveries.mode, 'push')))
      .returning({ id: webhookDeliveries.id });
    if (!row) throw notFound('Delivery');
    return c.json({ deliveryId: row.id }, 202);
  });
}
