import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, asc, desc, eq, gt, or, type SQL } from 'drizzle-orm';
import { WebhookDeliveryListQuerySchema, WebhookDeliveryListSchema } from '../../../../contract/webhooks.js';
import { webhookAttempts, webhookDeliveries } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { loadEndpoint } from '../../../webhooks/endpoints.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

const LISTED = 100;

const route = v1Route({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'List delivery attempts',
  description:
    'The 100 most recent attempts, newest first: time, attempt number, status code, error, duration, the next retry (when one is scheduled), the body sent and the start of the answer. `pending` lists deliveries waiting for an attempt. Kept 30 days. A pull endpoint has no attempts.',
  scope: 'webhooks:read',
  request: { params: WebhookIdParams, query: WebhookDeliveryListQuerySchema },
  responses: { 200: json(WebhookDeliveryListSchema, 'Attempts and waiting deliveries') },
});

export function registerListWebhookDeliveries(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const ep = await loadEndpoint(db, c.var.caller.workspaceId, c.req.valid('param').id);
    const { deliveryId } = c.req.valid('query');
    const now = c.var.services.clock.now();
    const oneDelivery: SQL[] = deliveryId ? [eq(webhookDeliveries.id, deliveryId)] : [];
    const attempts = await db
      .select({ a: webhookAttempts, eventId: webhookDeliveries.eventId, eventType: webhookDeliveries.eventType, body: webhookDeliveries.body })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(and(eq(webhookAttempts.endpointId, ep.id), ...oneDelivery))
      .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.attempt))
      .limit(LISTED);
    const pending = await db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, ep.id),
          eq(webhookDeliveries.mode, 'push'),
          or(eq(webhookDeliveries.status, 'pending'), gt(webhookDeliveries.redeliveryRequests, 0)),
          ...oneDelivery,
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(LISTED);
    return c.json(
      {
        attempts: attempts.map(({ a, eventId, eventType, body }) => ({
          id: a.id,
          deliveryId: a.deliveryId,
          eventId,
          eventType,
          attempt: a.attempt,
          manual: a.manual,
          attemptedAt: a.attemptedAt.toISOString(),
          success: a.success,
          statusCode: a.statusCode,
          error: a.error,
          durationMs: a.durationMs,
          nextRetryAt: a.nextRetryAt?.toISOString() ?? null,
          requestBody: body,
          responseBody: a.responseBody,
        })),
        pending: pending.map((d) => ({
          deliveryId: d.id,
          eventId: d.eventId,
          eventType: d.eventType,
          createdAt: d.createdAt.toISOString(),
          // A requested redelivery is due at once, before its scheduled retry.
          nextAttemptAt: (d.redeliveryRequests > 0 || !d.nextAttemptAt ? now : d.nextAttemptAt).toISOString(),
          attempts: d.attempts,
        })),
      },
      200,
    );
  });
}
