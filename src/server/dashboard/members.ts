import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { SessionSchema } from '../../contract/dashboard.js';
import {
  ChangeRoleRequestSchema,
  DeleteWorkspaceRequestSchema,
  InvitationPreviewSchema,
  InvitationTokenSchema,
  InviteMemberRequestSchema,
  JoinSignInRequestSchema,
  JoinSignUpRequestSchema,
  MemberInvitationSchema,
  MemberListSchema,
  SwitchWorkspaceRequestSchema,
  TransferOwnershipRequestSchema,
  WorkspaceChoiceSchema,
  WorkspaceListSchema,
} from '../../contract/members.js';
import { sessionBody, sessionUser } from '../auth/sessions.js';
import { ApiError } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { checkPersonPassword } from '../auth/sign-in.js';
import { clientAddress } from '../http/headers.js';
import { accountIn, findUserById } from '../workspaces/accounts.js';
import {
  acceptInvitation,
  changeRole,
  inviteMember,
  listMembers,
  openInvitationByToken,
  previewInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  signUpWithInvitation,
  switchWorkspace,
  transferOwnership,
  workspaceHolding,
  workspacesOf,
} from '../workspaces/members.js';
import type { DashboardSurface } from './routes.js';
import { endSession, SESSION_COOKIE, signInAs } from './session.js';
import { deleteWorkspace } from '../workspaces/deletion.js';
import { said } from '../core/sentences.js';

const USER_ID = ['usr', 'Member'] as const;
const INVITATION_ID = ['inv', 'Invitation'] as const;

/** The session as it is now, after an operation that changed its workspace or role. */
async function currentSession(c: Context<AppEnv>) {
  return c.json(await currentSessionBody(c));
}

async function currentSessionBody(c: Context<AppEnv>) {
  const user = await sessionUser(c.var.services, getCookie(c, SESSION_COOKIE));
  if (!user) throw new ApiError('unauthorized', said({ id: 'api.dashboard.signContinue', defaultMessage: 'Sign in to continue' }));
  return sessionBody(user, c.var.services.config);
}

/** /api/dashboard/members: the workspace's people and invitations; each operation checks the member's role itself. */
export function memberRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/', auth: 'session', summary: "The workspace's members (and, for its owner and admins, open invitations)", success: { status: 200, schema: MemberListSchema } }, async (c) =>
      c.json(await listMembers(c.var.services, c.var.user)),
    )
    .route(
      {
        method: 'post',
        path: '/invitations',
        auth: 'session',
        summary: 'Invite an address with a role (owner and admins)',
        description: 'Mails a link valid 7 days. 409 `already_member` or `already_invited`; 402 `upgrade_required` past the plan’s member limit (`FREE_MAX_MEMBERS`, `PAID_MAX_MEMBERS`); 403 for a member.',
        body: InviteMemberRequestSchema,
        success: { status: 201, schema: MemberInvitationSchema },
      },
      async (c, { body }) => c.json(await inviteMember(c.var.services, c.var.user, body), 201),
    )
    .route(
      { method: 'post', path: '/invitations/:id/resend', auth: 'session', summary: 'Send an invitation again: a new link, 7 more days', ids: { id: INVITATION_ID }, success: { status: 200, schema: MemberInvitationSchema } },
      async (c, { params }) => c.json(await resendInvitation(c.var.services, c.var.user, params.id)),
    )
    .route({ method: 'delete', path: '/invitations/:id', auth: 'session', summary: 'Revoke an invitation', ids: { id: INVITATION_ID }, success: { status: 204 } }, async (c, { params }) => {
      await revokeInvitation(c.var.services, c.var.user, params.id);
      return c.body(null, 204);
    })
    .route(
      { method: 'patch', path: '/:userId', auth: 'session', summary: "Change a member's role (owner and admins; not the owner's)", ids: { userId: USER_ID }, body: ChangeRoleRequestSchema, success: { status: 204 } },
      async (c, { params, body }) => {
        await changeRole(c.var.services, c.var.user, params.userId, body.role);
        return c.body(null, 204);
      },
    )
    .route(
      {
        method: 'delete',
        path: '/:userId',
        auth: 'session',
        summary: 'Remove a member, or leave (your own id)',
        description: 'Their sessions, dashboard tokens and apps in this workspace stop at their next request; what they made stays, attributed to them. The owner cannot be removed or leave (409 `owner`): ownership is handed over first.',
        ids: { userId: USER_ID },
        success: { status: 204 },
      },
      async (c, { params }) => {
        await removeMember(c.var.services, c.var.user, params.userId);
        return c.body(null, 204);
      },
    )
    .route(
      { method: 'post', path: '/ownership', auth: 'session', summary: 'Hand the workspace to another member (the owner only; you become an admin)', body: TransferOwnershipRequestSchema, success: { status: 200, schema: SessionSchema } },
      async (c, { body }) => {
        await transferOwnership(c.var.services, c.var.user, body.userId);
        return currentSession(c);
      },
    );
}

/** /api/dashboard/workspaces: the workspaces of the signed-in person, moving the session between them, and deleting the current one. */
export function workspaceSwitchRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/', auth: 'self', summary: 'The workspaces you belong to', success: { status: 200, schema: WorkspaceListSchema } }, async (c) =>
      c.json({ workspaces: await workspacesOf(c.var.services.db, c.var.user.userId) }),
    )
    .route(
      {
        method: 'get',
        path: '/holding/:id',
        auth: 'session',
        summary: 'Which of your workspaces holds a transfer, collection, upload request or webhook',
        description: 'For a link from another of your workspaces: the page offers to open it there. 404 when none of yours holds it.',
        success: { status: 200, schema: z.object({ workspace: WorkspaceChoiceSchema }) },
      },
      async (c, { params }) => c.json({ workspace: await workspaceHolding(c.var.services.db, c.var.user.userId, params.id) }),
    )
    .route(
      { method: 'post', path: '/current', auth: 'self', summary: 'Work in another of your workspaces', body: SwitchWorkspaceRequestSchema, success: { status: 200, schema: SessionSchema } },
      async (c, { body }) => {
        await switchWorkspace(c.var.services, c.var.user, body.workspaceId);
        return currentSession(c);
      },
    )
    .route(
      {
        method: 'delete',
        path: '/current',
        auth: 'session',
        summary: 'Delete the workspace you work in, with everything in it (its owner only)',
        description:
          'Its name, typed again, confirms it (400 on the `name` field otherwise). Everything the workspace holds is deleted at once — transfers and their links, collections, upload requests, contacts, API keys, webhooks, activity, the vaults made in it — and its stored files right after; every member is mailed. A member who belongs to another workspace keeps their account, and their sessions move to it; an account left with no workspace is deleted, so its address can sign up again. 409 `conflict` (reason `operators_last_workspace`) when it is the last workspace of the server\'s operator. `session` is where your own session went: null when you belong to no other workspace (you are signed out).',
        body: DeleteWorkspaceRequestSchema,
        success: { status: 200, schema: z.object({ session: SessionSchema.nullable() }) },
      },
      async (c, { body }) => {
        const { movedTo } = await deleteWorkspace(c.var.services, c.var.user, body);
        if (movedTo === null) {
          await endSession(c);
          return c.json({ session: null });
        }
        return c.json({ session: await currentSessionBody(c) });
      },
    );
}

/** /api/dashboard/join: an invitation's link, for the person invited. */
export function joinRoutes(surface: DashboardSurface) {
  surface
    .route(
      { method: 'post', path: '/preview', auth: 'anyone', summary: 'What an invitation is for (the token travels in the body, never in a URL)', body: InvitationTokenSchema, success: { status: 200, schema: InvitationPreviewSchema } },
      async (c, { body }) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await previewInvitation(c.var.services, body.token));
      },
    )
    .route(
      {
        method: 'post',
        path: '/',
        // Joining another workspace leaves this one's requirement behind, as switching does.
        auth: 'self',
        summary: 'Accept an invitation as the signed-in person, and work in that workspace',
        description: '403 `invitation_for_another_address` when you are signed in with another address than the invited one; 410 `gone` once the invitation expired, was used or was revoked.',
        body: InvitationTokenSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => {
        const { workspaceId } = await acceptInvitation(c.var.services, c.var.user, body.token);
        await switchWorkspace(c.var.services, c.var.user, workspaceId);
        return currentSession(c);
      },
    )
    .route(
      {
        method: 'post',
        path: '/signin',
        auth: 'anyone',
        summary: 'Accept an invitation with the invited address’s password, and sign in to that workspace',
        description:
          'For a person who has an account, even one in no workspace any more. 401 for a wrong password (counted like sign-in’s); 410 `gone` once the invitation expired, was used or was revoked.',
        body: JoinSignInRequestSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => {
        const { services } = c.var;
        const { invitation } = await openInvitationByToken(services.db, body.token, services.clock.now());
        const person = await checkPersonPassword(services, invitation.email, body.password, clientAddress(c, services.config.TRUST_PROXY));
        const { workspaceId } = await acceptInvitation(services, { userId: person.id, name: person.name, email: person.email }, body.token);
        const account = await accountIn(services.db, person.id, workspaceId);
        if (!account) throw new Error('a workspace just joined has no membership');
        return signInAs(c, account);
      },
    )
    .route(
      {
        method: 'post',
        path: '/signup',
        auth: 'anyone',
        summary: 'Create the invited account, joined to the workspace, and sign in',
        description: 'The address is the invitation’s; the account has no workspace of its own. 409 `email_taken` when the address has an account: sign in and accept instead.',
        body: JoinSignUpRequestSchema,
        success: { status: 201, schema: SessionSchema },
      },
      async (c, { body }) => {
        // The new account's only workspace is the one it joined: its session opens there.
        const { userId } = await signUpWithInvitation(c.var.services, body);
        const account = await findUserById(c.var.services.db, userId);
        if (!account) throw new Error('an account just made vanished');
        return signInAs(c, account, 201);
      },
    );
}
