import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

// Workspaces, the people in them, and how they sign in: passwords, sessions, API keys, access tokens.

export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    plan: text('plan', { enum: ['free', 'paid'] }).notNull().default('free'),
    /** A paid plan lapses at this instant; null means it runs until changed. */
    planUntil: ts('plan_until'),
    everPaid: boolean('ever_paid').notNull().default(false),
    /** Prepaid credit in millionths of a euro, so that per-byte charges never round away. */
    creditMicroEur: bigint('credit_micro_eur', { mode: 'number' }).notNull().default(0),
    /** The workspace's own hostname (lower-case, no port), set by the operator (`npm run admin -- domain set`). */
    customDomain: text('custom_domain'),
    referralCode: text('referral_code').notNull().unique(),
    referredBy: text('referred_by'),
    /** Set by the operator: the workspace's links, keys and sign-ins stop until it is enabled again. */
    disabledAt: ts('disabled_at'),
    /** Defaults for new transfers: mail the workspace when a transfer is downloaded / is about to expire unseen. */
    notifyDownloads: boolean('notify_downloads').notNull().default(true),
    notifyBeforeExpiry: boolean('notify_before_expiry').notNull().default(true),
    /** Everyone in the workspace must have two-step verification on to work in it (docs/security.md). */
    requireTwoStep: boolean('require_two_step').notNull().default(false),
    /** Everyone in the workspace must sign in through one of its identity providers to work in it (docs/security.md). */
    requireSingleSignOn: boolean('require_single_sign_on').notNull().default(false),
    createdAt: ts('created_at').notNull(),
  },
  // A request's Host must name at most one workspace, and every page request to a custom domain looks it up.
  (t) => [uniqueIndex('workspaces_custom_domain_key').on(t.customDomain).where(sql`${t.customDomain} is not null`)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The person who runs this server: the first account created on it. Sees the Admin page. */
    isOperator: boolean('is_operator').notNull().default(false),
    /** How teammates see the person; null until they give one (the address stands in). */
    name: text('name'),
    /** Set by the operator: the person can sign in nowhere, and their sessions and tokens stop. */
    disabledAt: ts('disabled_at'),
    /** The authenticator app's shared secret, sealed (auth/two-step.ts); null while two-step verification is off. */
    totpSecret: text('totp_secret'),
    /** A secret being set up, sealed, until the person confirms it with a first code. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The last 30-second step whose code was accepted: each code signs in once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The language the person picked in Settings, for their mail (and, once translated, the dashboard); null: English. */
    locale: text('locale'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

/** What a member may do in a workspace (docs/teams.md has the matrix). */
export const memberRoles = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof memberRoles)[number];

/** A person's place in a workspace: one role each; exactly one owner per workspace (memberships_one_owner_key). */
export const memberships = pgTable(
  'memberships',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: memberRoles }).notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'memberships_pk', columns: [t.workspaceId, t.userId] }),
    uniqueIndex('memberships_one_owner_key').on(t.workspaceId).where(sql`${t.role} = 'owner'`),
    index('memberships_user_idx').on(t.userId),
  ],
);

/** An address invited into a workspace with a role; the token is mailed, only its hash kept. */
export const memberInvitations = pgTable(
  'member_invitations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    /** When the mail last went out (a resend moves it, and the expiry with it). */
    sentAt: ts('sent_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('member_invitations_open_key').on(t.workspaceId, sql`lower(${t.email})`).where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`)],
);

/** An address the operator invited to sign up while sign-up is `invite`; the token is mailed, only its hash kept. */
export const signupInvites = pgTable(
  'signup_invites',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
  },
  (t) => [index('signup_invites_email_idx').on(sql`lower(${t.email})`)],
);

/** A mailed password-reset link: single use, short-lived; only the token's hash is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.expiresAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie value; the value itself is never stored. */
    idHash: text('id_hash').primaryKey(),
    /** How Settings → Security names the session (`ses_…`): the hash is never shown. */
    id: text('id').notNull().unique(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The browser's User-Agent and the client's address at sign-in, then as last seen. */
    userAgent: text('user_agent'),
    address: text('address'),
    lastSeenAt: ts('last_seen_at').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** The identity provider the session was signed in through; null for a password or a passkey. */
    ssoProviderId: text('sso_provider_id').references(() => identityProviders.id, { onDelete: 'set null' }),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt), index('sessions_user_idx').on(t.userId)],
);

/** A passkey (WebAuthn credential) a person signs in with, alone: it counts as both steps. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id as the authenticator gave it (base64url). */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key (base64url): public, checks signatures only. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'`),
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * A challenge a browser must answer within minutes (a passkey's, a single sign-on's state and nonce);
 * the browser holds the token in a cookie, only its hash is kept, and the first answer spends it.
 */
export const browserChallenges = pgTable(
  'browser_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose', { enum: ['passkey', 'single_sign_on'] }).notNull(),
    challenge: text('challenge').notNull(),
    /** Whose passkey is being registered; null when signing in (the passkey, or the provider, names the person). */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('browser_challenges_expires_idx').on(t.expiresAt)],
);

/** One-time recovery codes for two-step verification; only their hashes are kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * A sign-in whose password was right and whose second step is awaited: the token lives in an
 * HttpOnly cookie for ten minutes; only its hash is kept.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** The sign-in came through this identity provider: the session the code completes says so. */
    ssoProviderId: text('sso_provider_id').references(() => identityProviders.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sign_in_challenges_expires_idx').on(t.expiresAt)],
);

/** A browser the person chose to trust for 30 days: its sign-ins skip the second step. Only the cookie's hash is kept. */
export const trustedBrowsers = pgTable(
  'trusted_browsers',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('trusted_browsers_user_idx').on(t.userId), index('trusted_browsers_expires_idx').on(t.expiresAt)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    hint: text('hint').notNull(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** The member who made the key (null for keys made before teams). The key acts as the workspace's owner whoever made it. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('api_keys_workspace_idx').on(t.workspaceId)],
);

/** Short-lived bearer tokens: the dashboard's (minted from a session) and, later, OAuth access tokens. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['session', 'oauth'] }).notNull(),
    /** The dashboard session a `session` token was minted from: signing out deletes its tokens. */
    sessionIdHash: text('session_id_hash').references(() => sessions.idHash, { onDelete: 'cascade' }),
    clientId: text('client_id'),
    scopes: text('scopes').array().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('access_tokens_expires_idx').on(t.expiresAt), index('access_tokens_session_idx').on(t.sessionIdHash)],
);

/** An OpenID Connect provider the operator set up (`npm run admin -- sso add`); its client secret is sealed. */
export const identityProviders = pgTable('identity_providers', {
  id: text('id').primaryKey(),
  /** What the sign-in page's button says: "Sign in with <name>". */
  name: text('name').notNull(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  createdAt: ts('created_at').notNull(),
});

/** An email domain a workspace tied to a provider: people of that domain signing in through it join the workspace. */
export const signInDomains = pgTable(
  'sign_in_domains',
  {
    /** Lower-case, one workspace's only. */
    domain: text('domain').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull().references(() => identityProviders.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('sign_in_domains_workspace_idx').on(t.workspaceId)],
);

/** Who a provider's subject is here: matched once (by verified email, or made just in time), then by subject alone. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    providerId: text('provider_id').notNull().references(() => identityProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.subject] }), index('sso_identities_user_idx').on(t.userId)],
);
