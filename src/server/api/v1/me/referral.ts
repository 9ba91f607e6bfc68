import type { OpenAPIHono } from '@hono/zod-openapi';
import { ReferralSchema } from '../../../../contract/me.js';
import type { AppEnv } from '../../../http/env.js';
import { referralOf } from '../../../workspaces/referrals.js';
import { v1Route } from '../route.js';

export const getReferralRoute = v1Route({
  method: 'get',
  path: '/me/referral',
  operationId: 'getReferral',
  tags: ['Account'],
  summary: 'Referral code and earnings',
  description:
    "The workspace's invite code and link, how many workspaces signed up through it, and the free months earned. A sign-up through the link (or with the code, in any letter case) records this workspace as its referrer. " +
    'By default a referred workspace counts once it has taken a paid plan and earns one free month, up to 12 in total. The operator of the server configures the rule (when a referral counts, months per referral, the cap; 0 months turns earning off), and `rule` reports the one in force. On a server that bills nobody (`plan.billing` `off` on `GET /me`) the link only invites: `rule.monthsPerReferral` and `rule.maxFreeMonths` are 0, and so is `freeMonthsEarned`.',
  scope: 'any',
  responses: {
    200: { description: 'Referral data', content: { 'application/json': { schema: ReferralSchema } } },
  },
});

export function registerGetReferral(app: OpenAPIHono<AppEnv>) {
  app.openapi(getReferralRoute, async (c) => {
    const referral = await referralOf(c.var.services, c.var.caller.workspaceId);
    if (!referral) throw new Error('workspace of an authenticated caller vanished');
    return c.json(referral, 200);
  });
}
