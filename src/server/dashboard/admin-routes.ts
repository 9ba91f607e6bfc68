import { Hono, type MiddlewareHandler } from 'hono';
import { InviteRequestSchema, UpdateAdminWorkspaceSchema } from '../../contract/dashboard.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import { parseJsonBody, pathId } from '../http/validate.js';
import { setPlan } from '../workspaces/accounts.js';
import { billingOff } from '../workspaces/plan.js';
import { inviteToSignUp, listWorkspaces, pendingInvites, revokeInvite, setWorkspaceDisabled } from '../workspaces/operator.js';
import { requireSession } from './session.js';

const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user.isOperator) throw new ApiError('forbidden', 'Only the operator of this server can do this');
  await next();
};

/** /api/dashboard/admin: the operator's view of the server: workspaces (plan, disabled) and sign-up invitations. */
export function adminRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', requireSession, requireOperator);

  app.get('/workspaces', async (c) => {
    const { db, clock, config } = c.var.services;
    c.header('Cache-Control', 'no-store');
    return c.json({ workspaces: await listWorkspaces(db, clock.now(), c.var.user.workspaceId, config) });
  });

  app.patch('/workspaces/:id', async (c) => {
    const id = pathId(c, 'id', 'ws', 'Workspace');
    const input = await parseJsonBody(c, UpdateAdminWorkspaceSchema);
    const { db, clock, config } = c.var.services;
    const now = clock.now();
    if (input.plan !== undefined && billingOff(config)) {
      throw new ApiError('conflict', 'This server bills nobody (BILLING=off): every workspace has the paid plan\'s features, and plans cannot be changed', { reason: 'billing_off' });
    }
    if (input.disabled === true && id === c.var.user.workspaceId) {
      throw new ApiError('conflict', 'You cannot disable your own workspace', { reason: 'own_workspace' });
    }
    if (input.plan !== undefined && !(await setPlan(db, id, input.plan, null))) throw notFound('Workspace');
    if (input.disabled !== undefined && !(await setWorkspaceDisabled(db, id, input.disabled, now))) throw notFound('Workspace');
    const workspace = (await listWorkspaces(db, now, c.var.user.workspaceId, config)).find((w) => w.id === id);
    if (!workspace) throw notFound('Workspace');
    return c.json({ workspace });
  });

  app.get('/invites', async (c) => {
    const { db, clock } = c.var.services;
    c.header('Cache-Control', 'no-store');
    return c.json({ invites: await pendingInvites(db, clock.now()) });
  });

  app.post('/invites', async (c) => {
    const { email } = await parseJsonBody(c, InviteRequestSchema);
    return c.json({ invite: await inviteToSignUp(c.var.services, c.var.user, email) }, 201);
  });

  app.delete('/invites/:id', async (c) => {
    if (!(await revokeInvite(c.var.services.db, pathId(c, 'id', 'inv', 'Invitation')))) throw notFound('Invitation');
    return c.body(null, 204);
  });
  return app;
}
