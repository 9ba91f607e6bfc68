import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { WebhookWithSecretSchema } from '../../../../contract/webhooks.js';
import { webhookEndpoints } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { toWebhook, webhookNotFound } from '../../../webhooks/endpoints.js';
import { newWebhookSecret } from '../../../webhooks/signing.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { WebhookIdParams } from './params.js';

const route = v1Route({
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: 'Rotate the signing secret',
  description:
    'Replaces the secret at once: every attempt from now on, retries and redeliveries of older events included, is signed with the new one, which is returned only here. Update the receiver right away.',
  scope: 'webhooks:write',
  request: { params: WebhookIdParams },
  responses: { 200: json(WebhookWithSecretSchema, 'The endpoint and its new secret') },
});

export function registerRotateWebhookSecret(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const secret = newWebhookSecret();
    const [row] = await c.var.services.db
      .update(webhookEndpoints)
      .set({ signingSecret: secret, updatedAt: c.var.services.clock.now() })
      .where(and(eq(webhookEndpoints.workspaceId, c.var.caller.workspaceId), eq(webhookEndpoints.id, c.req.valid('param').id)))
      .returning();
    if (!row) throw webhookNotFound();
    return c.json({ webhook: toWebhook(row), secret }, 200);
  });
}
