import { z } from '@hono/zod-openapi';
import { AdminPersonSchema, AdminWorkspaceSchema, InviteRequestSchema, InviteSchema, UpdateAdminPersonSchema, UpdateAdminWorkspaceSchema } from '../../contract/dashboard.js';
import { notFound } from '../core/errors.js';
import { inviteToSignUp, listPeople, listWorkspaces, pendingInvites, revokeInvite, setPersonDisabled, updateWorkspaceAsOperator } from '../workspaces/operator.js';
import type { DashboardSurface } from './routes.js';
import { said } from '../core/sentences.js';

/** /api/dashboard/admin: the operator's view of the server: workspaces (plan, disabled), people (disabled) and sign-up invitations. */
export function adminRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/workspaces', auth: 'operator', summary: 'Every workspace on this server', success: { status: 200, schema: z.object({ workspaces: z.array(AdminWorkspaceSchema) }) } }, async (c) => {
      const { db, clock, config } = c.var.services;
      c.header('Cache-Control', 'no-store');
      return c.json({ workspaces: await listWorkspaces(db, clock.now(), c.var.user.workspaceId, config) });
    })
    .route(
      {
        method: 'patch',
        path: '/workspaces/:id',
        auth: 'operator',
        summary: "Change a workspace's plan, or disable or enable it",
        ids: { id: ['ws', 'Workspace'] },
        body: UpdateAdminWorkspaceSchema,
        success: { status: 200, schema: z.object({ workspace: AdminWorkspaceSchema }) },
      },
      async (c, { params, body }) => c.json({ workspace: await updateWorkspaceAsOperator(c.var.services, c.var.user, params.id, body) }),
    )
    .route({ method: 'get', path: '/people', auth: 'operator', summary: 'Every person on this server, with their workspaces and roles', success: { status: 200, schema: z.object({ people: z.array(AdminPersonSchema) }) } }, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ people: await listPeople(c.var.services.db, c.var.user.userId) });
    })
    .route(
      {
        method: 'patch',
        path: '/people/:id',
        auth: 'operator',
        summary: 'Disable a person everywhere, or enable them again',
        description: 'Disabling ends every session, dashboard token and app grant the person holds, in every workspace; they can sign in nowhere. API keys are their workspaces’ and keep working. 409 `own_account` for your own.',
        ids: { id: ['usr', 'Person'] },
        body: UpdateAdminPersonSchema,
        success: { status: 200, schema: z.object({ person: AdminPersonSchema }) },
      },
      async (c, { params, body }) => c.json({ person: await setPersonDisabled(c.var.services, c.var.user, params.id, body.disabled) }),
    )
    .route({ method: 'get', path: '/invites', auth: 'operator', summary: 'Invitations to sign up not yet used', success: { status: 200, schema: z.object({ invites: z.array(InviteSchema) }) } }, async (c) => {
      const { db, clock } = c.var.services;
      c.header('Cache-Control', 'no-store');
      return c.json({ invites: await pendingInvites(db, clock.now()) });
    })
    .route(
      { method: 'post', path: '/invites', auth: 'operator', summary: 'Invite an address to sign up (mailed)', body: InviteRequestSchema, success: { status: 201, schema: z.object({ invite: InviteSchema }) } },
      async (c, { body }) => c.json({ invite: await inviteToSignUp(c.var.services, c.var.user, body.email) }, 201),
    )
    .route({ method: 'delete', path: '/invites/:id', auth: 'operator', summary: 'Revoke an invitation', ids: { id: ['inv', 'Invitation'] }, success: { status: 204 } }, async (c, { params }) => {
      if (!(await revokeInvite(c.var.services.db, params.id))) throw notFound(said({ id: 'api.dashboard.invitationNotFound', defaultMessage: 'Invitation not found' }));
      return c.body(null, 204);
    });
}
