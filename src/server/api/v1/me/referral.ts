import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, count, eq } from 'drizzle-orm';
import { ReferralSchema } from '../../../../contract/me.js';
import { workspaces } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

const route = v1Route({
  method: 'get',
  path: '/me/referral',
  operationId: 'getReferral',
  tags: ['Account'],
  summary: 'Referral code and earnings',
  description: 'The workspace\'s invite code and link, and the free months earned: one for each referred workspace that took a paid plan.',
  scope: 'any',
  responses: {
    200: { description: 'Referral data', content: { 'application/json': { schema: ReferralSchema } } },
  },
});

export function registerGetReferral(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, config } = c.var.services;
    const [ws] = await db.select({ code: workspaces.referralCode }).from(workspaces).where(eq(workspaces.id, c.var.caller.workspaceId));
    const [earned] = await db
      .select({ n: count() })
      .from(workspaces)
      .where(and(eq(workspaces.referredBy, c.var.caller.workspaceId), eq(workspaces.everPaid, true)));
    const code = ws?.code ?? '';
    return c.json({ code, link: `${config.PUBLIC_URL}/signup?ref=${encodeURIComponent(code)}`, freeMonthsEarned: earned?.n ?? 0 }, 200);
  });
}
