import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { UpdateWebhookRequestSchema, WebhookResponseSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { updateWebhook } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';


export const updateWebhookRoute = v1Route({
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
  role: 'admin',
  request: { params: WebhookIdParams, ...jsonBody(UpdateWebhookRequestSchema) },
  responses: {
    200: json(WebhookResponseSchema, 'The endpoint as changed'),
    402: json(ErrorSchema, '`upgrade_required` with `details.reason` `paid_event`: a free workspace subscribing to a paid event type.'),
  },
});

export function registerUpdateWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateWebhookRoute, async (c) => {
    return c.json({ webhook: await updateWebhook(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 200);
  });
}
