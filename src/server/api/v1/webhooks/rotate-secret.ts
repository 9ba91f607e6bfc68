import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebhookWithSecretSchema } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';
import { rotateWebhookSecret } from '../../../webhooks/operations.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

export const rotateWebhookSecretRoute = v1Route({
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: 'Rotate the signing secret',
  description:
    'Replaces the secret at once: every attempt from now on, retries and redeliveries of older events included, is signed with the new one, which is returned only here. Update the receiver right away.',
  scope: 'webhooks:write',
  role: 'admin',
  request: { params: WebhookIdParams },
  responses: { 200: json(WebhookWithSecretSchema, 'The endpoint and its new secret') },
});

export function registerRotateWebhookSecret(app: OpenAPIHono<AppEnv>) {
  app.openapi(rotateWebhookSecretRoute, async (c) => {
    return c.json(await rotateWebhookSecret(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
