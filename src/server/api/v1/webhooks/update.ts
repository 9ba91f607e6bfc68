import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { ErrorSchema } from '../../../../contract/errors.js';
import { UpdateWebhookRequestSchema, WebhookResponseSchema } from '../../../../contract/webhooks.js';
import { webhookEndpoints } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { ApiError } from '../../../core/errors.js';
import { assertDeliverableUrl, assertEventsAllowed, loadEndpoint, toWebhook, webhookNotFound } from '../../../webhooks/endpoints.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const PAUSED_BY_REQUEST = 'Paused by request.';

const route = v1Route({
  method: 'patch',
  path: '/webhooks/{id}',
  operationId: 'updateWebhook',
  tags: ['Webhooks'],
  summary: 'Change, pause or resume a webhook endpoint',
  description: [
    '`enabled: false` pauses the endpoint: it is matched to no new events and its pending retries wait. `enabled: true` resumes it, also after an automatic pause (five deliveries in a row that used up every retry), clears `disabledReason` and restarts the count; pending retries continue.',
    'Our additions: `url` (push endpoints only, checked like on creation), `events` (the plan rules of creation apply) and `description`. Fields left out are unchanged.',
  ].join('\n\n'),
  scope: 'webhooks:write',
  request: { params: WebhookIdParams, ...jsonBody(UpdateWebhookRequestSchema) },
  responses: {
    200: json(WebhookResponseSchema, 'The endpoint as changed'),
    402: json(ErrorSchema, '`upgrade_required` with `details.reason` `paid_event`: a free workspace subscribing to a paid event type.'),
  },
});

export function registerUpdateWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.var.services;
    const { workspaceId, plan } = c.var.caller;
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const current = await loadEndpoint(services.db, workspaceId, id);
    if (input.url !== undefined && current.url === null) {
      throw new ApiError('invalid_request', 'Invalid body: url: a pull endpoint has no URL; create a push endpoint instead', {
        location: 'body',
        fields: [{ path: 'url', message: 'a pull endpoint has no URL; create a push endpoint instead' }],
      });
    }
    if (input.events) assertEventsAllowed(plan, input.events);
    const url = input.url === undefined ? undefined : await assertDeliverableUrl(services, input.url);
    const now = services.clock.now();
    const [row] = await services.db
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(input.events ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        // Resuming restarts the count; an `enabled: true` sent to an enabled endpoint changes nothing.
        ...(input.enabled === true && !current.enabled ? { enabled: true, disabledReason: null, exhaustedInRow: 0 } : {}),
        ...(input.enabled === false && current.enabled ? { enabled: false, disabledReason: PAUSED_BY_REQUEST } : {}),
        updatedAt: now,
      })
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)))
      .returning();
    if (!row) throw webhookNotFound();
    return c.json({ webhook: toWebhook(row) }, 200);
  });
}
