import type { OpenAPIHono } from '@hono/zod-openapi';
import { asc, eq } from 'drizzle-orm';
import { WebhookListSchema } from '../../../../contract/webhooks.js';
import { webhookEndpoints } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { toWebhook } from '../../../webhooks/endpoints.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

const route = v1Route({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: 'List webhook endpoints',
  description: 'Every endpoint of the workspace (at most ten), oldest first, in one response. Secrets are never listed.',
  scope: 'webhooks:read',
  responses: { 200: json(WebhookListSchema, 'The endpoints') },
});

export function registerListWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const rows = await c.var.services.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.workspaceId, c.var.caller.workspaceId))
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    return c.json({ webhooks: rows.map(toWebhook) }, 200);
  });
}
