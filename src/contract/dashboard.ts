import { z } from '@hono/zod-openapi';
import { LOCALES } from './locales.js';
import { MemberRoleSchema, PlanNameSchema } from './me.js';
import { ScopeSchema } from './scopes.js';

/**
 * The dashboard's own endpoints under /api/dashboard: what v1 does not cover (sign-up and sign-in,
 * API keys, the workspace). They use the session cookie; everything else the dashboard does goes
 * through /api/v1 with a short-lived bearer token from `POST /api/dashboard/token`.
 */

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const PasswordSchema = z
  .string()
  .min(10, { error: 'Use at least 10 characters' })
  .max(200, { error: 'Use at most 200 characters' });

const WorkspaceNameSchema = z.string().trim().min(1, { error: 'Name your workspace' }).max(100, { error: 'Use at most 100 characters' });

export const SignUpRequestSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  workspaceName: WorkspaceNameSchema,
  /** A referral code from an invite link. */
  ref: z.string().max(64).optional(),
  /** The token of the operator's invitation, when sign-up is by invitation. */
  invite: z.string().max(100).optional(),
});

export const SignInRequestSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, { error: 'Enter your password' }).max(200),
});

export const RenameWorkspaceRequestSchema = z.object({ name: WorkspaceNameSchema });

/** A person's own language: the dashboard's and their mail's; null follows the browser. */
const OwnLanguageSchema = z.enum(LOCALES, { error: `language must be one of: ${LOCALES.join(', ')} (or null to follow the browser)` }).nullable();

export const OwnLanguageRequestSchema = z.object({
  language: OwnLanguageSchema.openapi({
    description:
      'The dashboard is shown in it on every device, and the mail the service sends the person (downloads, reviews, invitations, security notices) is written in it; it is also the default language of the mail to the recipients they address. `null`: the dashboard follows the browser (its language menu, else `Accept-Language`), and mail is in English.',
  }),
});

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, { error: 'Enter your current password' }).max(200),
  newPassword: PasswordSchema,
});

export const SessionSchema = z.object({
  /** The server's `BILLING` setting: `off` shows no plan, credit, price or referral months anywhere. */
  billing: z.enum(['on', 'off']),
  user: z.object({
    id: z.string(),
    email: z.string(),
    /** How teammates see the person; null until they give one. */
    name: z.string().nullable(),
    isOperator: z.boolean(),
    /** Two-step verification is on for this person. */
    twoStep: z.boolean(),
    /** This session was signed in through an identity provider a domain of the workspace is tied to. */
    singleSignOn: z.boolean(),
    /** The person's own language (Settings), null when they follow the browser's. */
    language: OwnLanguageSchema,
  }),
  /** The workspace the session is in now, and the person's role in it (docs/teams.md). */
  workspace: z.object({
    id: z.string(),
    name: z.string(),
    plan: PlanNameSchema,
    planUntil: z.iso.datetime().nullable(),
    role: MemberRoleSchema,
    /**
     * Everyone here must have two-step verification on. While `user.twoStep` is false, only the
     * session, Settings → Security and the workspace switcher answer; everything else is 403 `two_step_required`.
     */
    requireTwoStep: z.boolean(),
    /**
     * Everyone here must sign in through one of the workspace's identity providers. While
     * `user.singleSignOn` is false, only the session and the workspace switcher answer; everything
     * else is 403 `single_sign_on_required`.
     */
    requireSingleSignOn: z.boolean(),
  }),
});

export const TwoStepRequirementSchema = z.object({ required: z.boolean() });

export const signupModes = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof signupModes)[number];

export const SetupQuerySchema = z.object({ invite: z.string().max(100).optional() });

export const SetupStateSchema = z.object({
  /** True until the first workspace exists: the first visitor is offered to create it. */
  needsFirstWorkspace: z.boolean(),
  /** Who may sign up (the operator's `SIGNUP`); the first account may always. */
  signup: z.enum(signupModes),
  /** With `?invite=<token>`: the invited address while the invitation is valid, else null. */
  invite: z.object({ email: z.string() }).nullable(),
});

export const AccessTokenSchema = z.object({
  accessToken: z.string(),
  expiresAt: z.iso.datetime(),
});

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** A non-secret reminder such as `sk_live_…x9Qa`. */
  hint: z.string(),
  scopes: z.array(ScopeSchema),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** The member who made it; null for keys made before teams or by the operator's tools. The key acts as the workspace's owner whoever made it. */
  createdBy: z.object({ name: z.string().nullable(), email: z.string() }).nullable(),
});

export const CreateApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, { error: 'Name the key' }).max(100),
  scopes: z.array(ScopeSchema).min(1, { error: 'Choose at least one scope' }),
});

export const CreateApiKeyResponseSchema = z.object({
  key: ApiKeySchema,
  /** The key itself. Shown once: only a hash is kept. */
  secret: z.string(),
});

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });

export type SignUpRequest = z.infer<typeof SignUpRequestSchema>;
export type SignInRequest = z.infer<typeof SignInRequestSchema>;
export type Session = z.infer<typeof SessionSchema>;
export type SetupState = z.infer<typeof SetupStateSchema>;
export type AccessToken = z.infer<typeof AccessTokenSchema>;
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponseSchema>;
export type RenameWorkspaceRequest = z.infer<typeof RenameWorkspaceRequestSchema>;
export type OwnLanguageRequest = z.infer<typeof OwnLanguageRequestSchema>;
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** The workspace's defaults for new transfers' mail to itself (each transfer can change its own). */
export const NotificationSettingsSchema = z.object({
  downloads: z.boolean(),
  beforeExpiry: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;
export const UpdateNotificationSettingsRequestSchema = NotificationSettingsSchema.partial().refine((v) => v.downloads !== undefined || v.beforeExpiry !== undefined, {
  error: 'give downloads or beforeExpiry',
});

export const RequestPasswordResetSchema = z.object({ email: EmailSchema });
export const CompletePasswordResetSchema = z.object({ token: z.string().min(1).max(100), newPassword: PasswordSchema });

export const InviteRequestSchema = z.object({ email: EmailSchema });
export const InviteSchema = z.object({ id: z.string(), email: z.string(), createdAt: z.iso.datetime(), expiresAt: z.iso.datetime() });
export type Invite = z.infer<typeof InviteSchema>;

/** A workspace as the operator's Admin page lists it. */
export const AdminWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerEmail: z.string().nullable(),
  plan: PlanNameSchema,
  planUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  disabled: z.boolean(),
  transferCount: z.number().int().min(0),
  storageBytes: z.number().int().min(0),
  apiCallsThisMonth: z.number().int().min(0),
  isOwn: z.boolean(),
});
export type AdminWorkspace = z.infer<typeof AdminWorkspaceSchema>;
/** A person (an account) as the operator's Admin page lists them: their workspaces and roles. */
export const AdminPersonSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  createdAt: z.iso.datetime(),
  /** Disabled by the operator: signed in nowhere, every session and token ended. */
  disabled: z.boolean(),
  isOperator: z.boolean(),
  /** You: the operator cannot disable their own account. */
  isYou: z.boolean(),
  workspaces: z.array(z.object({ id: z.string(), name: z.string(), role: MemberRoleSchema })),
});
export type AdminPerson = z.infer<typeof AdminPersonSchema>;
export const UpdateAdminPersonSchema = z.object({ disabled: z.boolean() });

export const UpdateAdminWorkspaceSchema = z
  .object({ plan: PlanNameSchema.optional(), disabled: z.boolean().optional() })
  .refine((v) => v.plan !== undefined || v.disabled !== undefined, { error: 'give plan or disabled' });
