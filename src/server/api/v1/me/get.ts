import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { MeSchema } from '../../../../contract/me.js';
import { preparedQuery } from '../../../db/prepared.js';
import { apiKeys, monthlyUsage, workspaces } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { billingOff, monthKey, planLimits } from '../../../workspaces/plan.js';
import { v1Route } from '../route.js';

const route = v1Route({
  method: 'get',
  path: '/me',
  operationId: 'getMe',
  tags: ['Account'],
  summary: 'Who am I',
  description:
    'The credential making the call, its workspace, the plan in force and this month\'s usage. On a server that bills nobody (`plan.billing` `off`) the plan is reported as `paid` with no end date, and the billing fields as documented on `plan.billing`.',
  scope: 'any',
  responses: {
    200: { description: 'The account', content: { 'application/json': { schema: MeSchema } } },
  },
});

// Integrations call this often (to check a key, or before each job): built once (db/prepared.ts).
const workspaceById = preparedQuery('me_workspace', (db, name) => db.select().from(workspaces).where(eq(workspaces.id, sql.placeholder('id'))).prepare(name));
const usageOfMonth = preparedQuery('me_usage', (db, name) =>
  db
    .select()
    .from(monthlyUsage)
    .where(and(eq(monthlyUsage.workspaceId, sql.placeholder('workspaceId')), eq(monthlyUsage.month, sql.placeholder('month'))))
    .prepare(name),
);
const keyNameById = preparedQuery('me_key_name', (db, name) => db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, sql.placeholder('id'))).prepare(name));

export function registerGetMe(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, clock, config } = c.var.services;
    const caller = c.var.caller;
    const now = clock.now();
    const month = monthKey(now);
    const [ws] = await workspaceById(db).execute({ id: caller.workspaceId });
    const [usage] = await usageOfMonth(db).execute({ workspaceId: caller.workspaceId, month });
    const keyName = caller.via === 'key' ? ((await keyNameById(db).execute({ id: caller.credentialId }))[0]?.name ?? null) : null;
    if (!ws) throw new Error('workspace of an authenticated caller vanished');
    const limits = planLimits(caller.plan, config);
    const billed = !billingOff(config);
    return c.json(
      {
        key: { id: caller.credentialId, name: keyName, via: caller.via, scopes: caller.scopes, canEmail: caller.canEmail },
        workspace: { id: ws.id, name: ws.name, customDomain: ws.customDomain, createdAt: ws.createdAt.toISOString() },
        plan: {
          name: caller.plan,
          until: billed && caller.plan === 'paid' && ws.planUntil ? ws.planUntil.toISOString() : null,
          billing: billed ? 'on' : 'off',
          limits: {
            monthlyCalls: limits.monthlyCalls,
            ratePerKeyPerMinute: config.RATE_LIMIT_KEY_PER_MINUTE,
            ratePerWorkspacePerDay: config.RATE_LIMIT_WORKSPACE_PER_DAY,
            webhookEndpoints: limits.webhookEndpoints,
            includedUploadBytesPerMonth: billed ? config.FREE_UPLOAD_BYTES_PER_MONTH : null,
            uploadPriceEurPerGb: billed ? config.UPLOAD_PRICE_EUR_PER_GB : 0,
            transferMaxBytes: limits.transferMaxBytes,
            transferExpiry: limits.transferExpiry,
          },
        },
        usage: {
          month,
          apiCalls: usage?.apiCalls ?? 0,
          apiUploadBytes: usage?.apiUploadBytes ?? 0,
          creditEur: billed ? ws.creditMicroEur / 1_000_000 : 0,
        },
        scanning: { enabled: config.CLAMD_URL !== undefined },
      },
      200,
    );
  });
}
