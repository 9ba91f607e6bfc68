import { z } from '@hono/zod-openapi';
import { EmailSchema, PasswordSchema } from './dashboard.js';
import { MemberRoleSchema } from './me.js';

/**
 * A workspace's members and invitations (docs/teams.md), under /api/dashboard: API keys cannot
 * manage members (spec, Authentication rule 5), so these are the signed-in people's own endpoints.
 */

/** The roles an invitation or a role change may give: the owner is made only by handing ownership over. */
export const GrantableRoleSchema = z.enum(['admin', 'member']);

const PersonSchema = z.object({ name: z.string().nullable(), email: z.string() });

export const MemberSchema = z.object({
  /** The person's id (`usr_…`), the same in every workspace they belong to. */
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  role: MemberRoleSchema,
  joinedAt: z.iso.datetime(),
  /** The operator disabled the person: they can sign in nowhere. */
  disabled: z.boolean(),
  /** The person has two-step verification on (what a workspace requiring it asks of everyone). */
  twoStep: z.boolean(),
});

export const MemberInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: GrantableRoleSchema,
  /** Who sent it; null when that person's account is gone. */
  invitedBy: PersonSchema.nullable(),
  /** When the mail last went out; a resend moves it, and the expiry with it. */
  sentAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  expired: z.boolean(),
});

export const MemberListSchema = z.object({
  members: z.array(MemberSchema),
  /** Invitations not accepted or revoked (expired ones included, to send again); empty unless you are the owner or an admin. */
  invitations: z.array(MemberInvitationSchema),
});

export const InviteMemberRequestSchema = z.object({ email: EmailSchema, role: GrantableRoleSchema });

export const ChangeRoleRequestSchema = z.object({ role: GrantableRoleSchema });

export const TransferOwnershipRequestSchema = z.object({ userId: z.string().min(1).max(100) });

/** What the join page shows: the workspace, the invited address and role, and whether the address has an account. */
export const InvitationPreviewSchema = z.object({
  workspace: z.object({ name: z.string() }),
  email: z.string(),
  role: GrantableRoleSchema,
  invitedBy: PersonSchema.nullable(),
  /** True: sign in (as `email`) to accept. False: create the account on the join page. */
  hasAccount: z.boolean(),
  expiresAt: z.iso.datetime(),
});

export const InvitationTokenSchema = z.object({ token: z.string().min(1).max(100) });

/** Creating the invited account: the address is the invitation's. */
export const JoinSignUpRequestSchema = z.object({
  token: z.string().min(1).max(100),
  name: z.string().trim().min(1, { error: 'Tell your team your name' }).max(100, { error: 'Use at most 100 characters' }),
  password: PasswordSchema,
});

/** Accepting with the invited address's password, for a person who has an account (signed in or not). */
export const JoinSignInRequestSchema = z.object({
  token: z.string().min(1).max(100),
  password: z.string().min(1, { error: 'Enter your password' }).max(200),
});

export const WorkspaceChoiceSchema = z.object({ id: z.string(), name: z.string(), role: MemberRoleSchema });

export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceChoiceSchema) });

export const SwitchWorkspaceRequestSchema = z.object({ workspaceId: z.string().min(1).max(100) });

/** Deleting the workspace (its owner): its name typed again, so that no slip of a click deletes it. */
export const DeleteWorkspaceRequestSchema = z.object({ name: z.string().max(200) });
export type DeleteWorkspaceRequest = z.infer<typeof DeleteWorkspaceRequestSchema>;

export type Member = z.infer<typeof MemberSchema>;
export type MemberInvitation = z.infer<typeof MemberInvitationSchema>;
export type MemberList = z.infer<typeof MemberListSchema>;
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;
export type WorkspaceChoice = z.infer<typeof WorkspaceChoiceSchema>;
