import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { MeSchema } from '../../../../contract/me.js';
import { apiKeys, monthlyUsage, workspaces } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { monthKey, planLimits } from '../../../workspaces/plan.js';
import { v1Route } from '../route.js';

const route = v1Route({
  method: 'get',
  path: '/me',
  operationId: 'getMe',
  tags: ['Account'],
  summary: 'Who am I',
  description: 'The credential making the call, its workspace, the plan in force and this month\'s usage.',
  scope: 'any',
  responses: {
    200: { description: 'The account', content: { 'application/json': { schema: MeSchema } } },
  },
});

export function registerGetMe(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, clock, config } = c.var.services;
    const caller = c.var.caller;
    const now = clock.now();
    const month = monthKey(now);
    const [ws] = await db.select().from(workspaces).where(eq(workspaces.id, caller.workspaceId));
    const [usage] = await db
      .select()
      .from(monthlyUsage)
      .where(and(eq(monthlyUsage.workspaceId, caller.workspaceId), eq(monthlyUsage.month, month)));
    const keyName =
      caller.via === 'key'
        ? ((await db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, caller.credentialId)))[0]?.name ?? null)
        : null;
    if (!ws) throw new Error('workspace of an authenticated caller vanished');
    const limits = planLimits(caller.plan, config);
    return c.json(
      {
        key: { id: caller.credentialId, name: keyName, via: caller.via, scopes: caller.scopes, canEmail: caller.canEmail },
        workspace: { id: ws.id, name: ws.name, customDomain: ws.customDomain, createdAt: ws.createdAt.toISOString() },
        plan: {
          name: caller.plan,
          until: caller.plan === 'paid' && ws.planUntil ? ws.planUntil.toISOString() : null,
          limits: {
            monthlyCalls: limits.monthlyCalls,
            ratePerKeyPerMinute: config.RATE_LIMIT_KEY_PER_MINUTE,
            ratePerWorkspacePerDay: config.RATE_LIMIT_WORKSPACE_PER_DAY,
            webhookEndpoints: limits.webhookEndpoints,
            includedUploadBytesPerMonth: config.FREE_UPLOAD_BYTES_PER_MONTH,
            uploadPriceEurPerGb: config.UPLOAD_PRICE_EUR_PER_GB,
            transferMaxBytes: limits.transferMaxBytes,
            transferExpiry: limits.transferExpiry,
          },
        },
        usage: {
          month,
          apiCalls: usage?.apiCalls ?? 0,
          apiUploadBytes: usage?.apiUploadBytes ?? 0,
          creditEur: ws.creditMicroEur / 1_000_000,
        },
        scanning: { enabled: config.CLAMD_URL !== undefined },
      },
      200,
    );
  });
}
