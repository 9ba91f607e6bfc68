import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { MeSchema } from '../../../../contract/me.js';
import { preparedQuery } from '../../../db/prepared.js';
import { monthlyUsage, workspaces } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { billingOff, monthKey, planLimits } from '../../../workspaces/plan.js';
import { v1Route } from '../route.js';

export const getMeRoute = v1Route({
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

// Integrations call this often (to check a key, or before each job): one statement, built once
// (db/prepared.ts). The key's name came with the caller (`credentialName`).
const account = preparedQuery('me_account', (db, name) =>
  db
    .select({
      ws: { id: workspaces.id, name: workspaces.name, customDomain: workspaces.customDomain, createdAt: workspaces.createdAt, planUntil: workspaces.planUntil, creditMicroEur: workspaces.creditMicroEur },
      usage: { apiCalls: monthlyUsage.apiCalls, apiUploadBytes: monthlyUsage.apiUploadBytes },
    })
    .from(workspaces)
    .leftJoin(monthlyUsage, and(eq(monthlyUsage.workspaceId, workspaces.id), eq(monthlyUsage.month, sql.placeholder('month'))))
    .where(eq(workspaces.id, sql.placeholder('workspaceId')))
    .prepare(name),
);

export function registerGetMe(app: OpenAPIHono<AppEnv>) {
  app.openapi(getMeRoute, async (c) => {
    const { db, clock, config } = c.var.services;
    const caller = c.var.caller;
    const now = clock.now();
    const month = monthKey(now);
    const [row] = await account(db).execute({ workspaceId: caller.workspaceId, month });
    if (!row) throw new Error('workspace of an authenticated caller vanished');
    const { ws, usage } = row;
    const limits = planLimits(caller.plan, config);
    const billed = !billingOff(config);
    return c.json(
      {
        key: { id: caller.credentialId, name: caller.credentialName, via: caller.via, scopes: caller.scopes, canEmail: caller.canEmail },
        workspace: { id: ws.id, name: ws.name, customDomain: ws.customDomain, createdAt: ws.createdAt.toISOString() },
        member: caller.member && { id: caller.member.userId, name: caller.member.name, email: caller.member.email },
        role: caller.role,
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
