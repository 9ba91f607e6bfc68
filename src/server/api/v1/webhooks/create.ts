import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { CreateWebhookRequestSchema, WebhookWithSecretSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { createWebhook } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const createWebhookRoute = v1Route({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags: ['Webhooks'],
  summary: 'Create a webhook endpoint',
  description: [
    'A push endpoint (`url` an `https` URL) receives each subscribed event as a signed POST; a pull endpoint (`url` null) keeps them 30 days for `GET /webhooks/{id}/events`. Only events that happen after creation are matched to it.',
    'The `secret` is returned only here (and by `rotateWebhookSecret`): every delivery carries `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with it. Receivers reject a `t` more than five minutes away and compare in constant time.',
    'A URL that is not `https`, or whose host is or resolves to a private, loopback, link-local or reserved address, answers `400 invalid_request` with `details.reason` `forbidden_url`. Limits: the free plan has one endpoint and transfer events only (`402 upgrade_required` with `details.reason` `endpoint_limit` or `paid_event`); a paid plan has up to ten (`409 conflict` with `details.reason` `endpoint_limit`).',
  ].join('\n\n'),
  scope: 'webhooks:write',
  role: 'admin',
  request: jsonBody(CreateWebhookRequestSchema),
  responses: {
    201: json(WebhookWithSecretSchema, 'The endpoint and its signing secret, shown only now'),
    402: json(
      ErrorSchema,
      '`upgrade_required`: a free workspace subscribing to a paid event (`details.reason` `paid_event`, `details.events`) or creating a second endpoint (`details.reason` `endpoint_limit`).',
    ),
    409: { description: '`conflict` with `details.reason` `endpoint_limit`: the workspace already has ten endpoints.' },
  },
});

export function registerCreateWebhook(app: OpenAPIHono<AppEnv>) {
  app.openapi(createWebhookRoute, async (c) => {
    return c.json(await createWebhook(c.var.services, c.var.caller, c.req.valid('json')), 201);
  });
}
