import { memberActor, recordActivity } from '../activity/activity.js';
import { and, desc, eq, gt, isNull, ne, sql, type Column, type SQL } from 'drizzle-orm';
import { isLocale, type Locale } from '../../contract/locales.js';
import { scopesForMember, type MemberRole } from '../../contract/scopes.js';
import { ApiError } from '../core/errors.js';
import { said } from '../core/sentences.js';
import { newId, newSessionToken, randomBase62, sha256 } from '../core/secrets.js';
import { accessTokens, memberships, sessions, signInDomains, users, workspaces } from '../db/schema/index.js';
import type { Tx } from '../db/connection.js';
import type { Services } from '../services.js';
import { activeWorkspace, refuseInactiveWorkspace } from '../workspaces/active.js';
import { billingOff, effectivePlan, type Billing, type Plan } from '../workspaces/plan.js';

/**
 * Dashboard sessions: a random token (the cookie's value, which the surface sets) of which only the
 * hash is stored, valid for SESSION_TTL_SECONDS; and the short-lived bearer tokens minted from one.
 */

/** Who is signed in to the dashboard, resolved from the session cookie (dashboard routes only). */
export interface SignedInUser {
  userId: string;
  email: string;
  name: string | null;
  /** Runs this server: sees the Admin page. */
  isOperator: boolean;
  workspaceId: string;
  workspaceName: string;
  /** The person's role in the session's workspace, read with the session on every request. */
  role: MemberRole;
  twoStepOn: boolean;
  /** The person's own language (Settings): the dashboard's and their mail's; null follows the browser. */
  language: Locale | null;
  /** The workspace requires two-step verification of everyone (docs/security.md). */
  workspaceRequiresTwoStep: boolean;
  /** The workspace requires everyone to sign in through one of its identity providers (docs/security.md). */
  workspaceRequiresSingleSignOn: boolean;
  /** This session was signed in through an identity provider a domain of the workspace is tied to. */
  singleSignOnSatisfied: boolean;
  plan: Plan;
  planUntil: Date | null;
  sessionHash: string;
  sessionExpiresAt: Date;
}

type UserRow = typeof users.$inferSelect;
type WorkspaceRow = typeof workspaces.$inferSelect;
/** An account as sign-in finds it: the person, the workspace the session opens and their role in it. */
export interface Account {
  user: UserRow;
  ws: WorkspaceRow;
  role: MemberRole;
  /** The identity provider the person signed in through (auth/single-sign-on.ts); absent for a password or a passkey. */
  ssoProviderId?: string | null;
}

/** The longest cookie value looked up; anything longer is no session. */
const MAX_TOKEN_LENGTH = 100;

/** A disabled workspace, or a person the operator disabled, signs in nowhere (403). */
export function refuseSignIn({ user, ws }: Pick<Account, 'user' | 'ws'>) {
  refuseInactiveWorkspace(ws);
  if (user.disabledAt !== null) throw new ApiError('forbidden', said({ id: 'api.auth.accountBeenDisabledOperator', defaultMessage: 'This account has been disabled by the operator of this server' }), { reason: 'account_disabled' });
}

/** Where a session is used from, as Settings → Security shows it. */
export interface SessionClient {
  userAgent: string | null;
  address: string;
}

/** A session's last-seen time and address are written at most this often, not on every request. */
const LAST_SEEN_GRANULARITY_MS = 5 * 60_000;

/** A new session for the account (a disabled workspace is refused): the token the cookie carries. */
export async function createSession(services: Pick<Services, 'db' | 'clock' | 'config'>, { user, ws, role, ssoProviderId }: Account, client: SessionClient) {
  refuseSignIn({ user, ws });
  const token = randomBase62(43);
  const now = services.clock.now();
  const expiresAt = new Date(now.getTime() + services.config.SESSION_TTL_SECONDS * 1000);
  await services.db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      idHash: sha256(token),
      id: newId('ses'),
      userId: user.id,
      workspaceId: ws.id,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      address: client.address,
      lastSeenAt: now,
      createdAt: now,
      expiresAt,
      ssoProviderId: ssoProviderId ?? null,
    });
    await recordActivity(tx, ws.id, now, { kind: 'member.signed_in', actor: memberActor({ userId: user.id, name: user.name, email: user.email }) });
  });
  const singleSignOnSatisfied = ssoProviderId ? await providerTiedTo(services.db, ssoProviderId, ws.id) : false;
  return { token, user: signedInUser(user, ws, role, singleSignOnSatisfied, now, services.config) };
}

/** Whether a domain of the workspace is tied to the provider: a session through it meets the workspace's requirement of single sign-on. */
async function providerTiedTo(db: Services['db'], providerId: string, workspaceId: string): Promise<boolean> {
  const [row] = await db.select({ domain: signInDomains.domain }).from(signInDomains).where(and(eq(signInDomains.providerId, providerId), eq(signInDomains.workspaceId, workspaceId))).limit(1);
  return row !== undefined;
}

/** The same, in SQL, for a session (or a token minted from one) read with its workspace. */
export const sessionMeetsSingleSignOn = (sessionProvider: SQL | Column, workspace: SQL | Column) =>
  sql<boolean>`exists (select 1 from ${signInDomains} where ${signInDomains.providerId} = ${sessionProvider} and ${signInDomains.workspaceId} = ${workspace})`;

/** Ends the session (and, through its rows, the bearer tokens minted from it). */
export async function deleteSession(services: Pick<Services, 'db'>, token: string) {
  await services.db.delete(sessions).where(eq(sessions.idHash, sha256(token)));
}

/**
 * The signed-in user of a session token, or null for none, an expired one, a disabled workspace's or
 * person's, or one whose person is no longer a member of the session's workspace. With `client`,
 * the session's last-seen time and address follow (every few minutes).
 */
export async function sessionUser(services: Pick<Services, 'db' | 'clock' | 'config'>, token: string | undefined, client?: SessionClient): Promise<SignedInUser | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const idHash = sha256(token);
  const now = services.clock.now();
  const [row] = await services.db
    .select({
      user: users,
      ws: workspaces,
      role: memberships.role,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      singleSignOn: sessionMeetsSingleSignOn(sessions.ssoProviderId, sessions.workspaceId),
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.disabledAt)))
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .innerJoin(memberships, and(eq(memberships.workspaceId, sessions.workspaceId), eq(memberships.userId, sessions.userId)))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now), activeWorkspace()))
    .limit(1);
  if (!row) return null;
  if (client && now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_GRANULARITY_MS) {
    await services.db.update(sessions).set({ lastSeenAt: now, address: client.address }).where(eq(sessions.idHash, idHash));
  }
  return { ...signedInUser(row.user, row.ws, row.role, row.singleSignOn, now, services.config), sessionHash: idHash, sessionExpiresAt: row.expiresAt };
}

function signedInUser(user: UserRow, ws: WorkspaceRow, role: MemberRole, singleSignOnSatisfied: boolean, now: Date, billing: Billing): Omit<SignedInUser, 'sessionHash' | 'sessionExpiresAt'> {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    isOperator: user.isOperator,
    workspaceId: ws.id,
    workspaceName: ws.name,
    role,
    twoStepOn: user.totpEnabledAt !== null,
    language: isLocale(user.locale) ? user.locale : null,
    workspaceRequiresTwoStep: ws.requireTwoStep,
    workspaceRequiresSingleSignOn: ws.requireSingleSignOn,
    singleSignOnSatisfied,
    plan: effectivePlan(ws, now, billing),
    planUntil: ws.planUntil,
  };
}

/** Sets the person's own language (Settings): their dashboard's on every device and their mail's; null follows the browser. */
export async function setOwnLanguage(db: Services['db'], userId: string, language: Locale | null) {
  await db.update(users).set({ locale: language }).where(eq(users.id, userId));
}

/**
 * The own language of the person a session cookie belongs to, for the dashboard page the server writes in it:
 * null for none chosen, and for no session (an ended or unknown one too). One indexed lookup, no side effects.
 */
export async function sessionLanguage(services: Pick<Services, 'db' | 'clock'>, token: string | undefined): Promise<Locale | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const [row] = await services.db
    .select({ locale: users.locale })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sha256(token)), gt(sessions.expiresAt, services.clock.now())))
    .limit(1);
  return isLocale(row?.locale) ? row.locale : null;
}

/** The session as the dashboard reads it (contract: SessionSchema). */
export function sessionBody(user: Omit<SignedInUser, 'sessionHash' | 'sessionExpiresAt'>, billing: Billing) {
  return {
    billing: billingOff(billing) ? ('off' as const) : ('on' as const),
    user: { id: user.userId, email: user.email, name: user.name, isOperator: user.isOperator, twoStep: user.twoStepOn, singleSignOn: user.singleSignOnSatisfied, language: user.language },
    workspace: {
      id: user.workspaceId,
      name: user.workspaceName,
      plan: user.plan,
      planUntil: !billingOff(billing) && user.plan === 'paid' && user.planUntil ? user.planUntil.toISOString() : null,
      role: user.role,
      requireTwoStep: user.workspaceRequiresTwoStep,
      requireSingleSignOn: user.workspaceRequiresSingleSignOn,
    },
  };
}

/**
 * A person in a workspace that requires two-step verification, without it on, may only set it up
 * (or leave for another workspace): 403 `two_step_required` for everything else, here and for the
 * bearer tokens minted from the session. Likewise a workspace that requires single sign-on answers
 * a session signed in some other way 403 `single_sign_on_required` (sign in through its provider).
 */
export function refuseUntilCompliant(
  user: Pick<SignedInUser, 'workspaceRequiresTwoStep' | 'twoStepOn' | 'workspaceName' | 'workspaceRequiresSingleSignOn' | 'singleSignOnSatisfied'>,
) {
  if (user.workspaceRequiresTwoStep && !user.twoStepOn) {
    throw new ApiError(
      'forbidden',
      said({ id: 'api.session.twoStepRequired', defaultMessage: '{workspace} requires two-step verification: turn it on in Settings → Security to continue' }, { workspace: user.workspaceName }),
      { reason: 'two_step_required' },
    );
  }
  if (user.workspaceRequiresSingleSignOn && !user.singleSignOnSatisfied) {
    throw new ApiError(
      'forbidden',
      said({ id: 'api.session.singleSignOnRequired', defaultMessage: '{workspace} requires single sign-on: sign in through your organisation’s identity provider to continue' }, { workspace: user.workspaceName }),
      { reason: 'single_sign_on_required' },
    );
  }
}

/**
 * A short-lived bearer token, so the dashboard uses /api/v1 exactly as an integrator does. It
 * belongs to the session (signing out deletes it) and never outlives it, and it holds only the
 * scopes the workspace's plan and the member's role allow, re-checked on every request (see resolveCaller).
 */
export async function mintSessionAccessToken(services: Pick<Services, 'db' | 'clock' | 'config'>, user: SignedInUser) {
  refuseUntilCompliant(user);
  const now = services.clock.now();
  const token = newSessionToken();
  const expiresAt = new Date(Math.min(now.getTime() + services.config.ACCESS_TOKEN_TTL_SECONDS * 1000, user.sessionExpiresAt.getTime()));
  await services.db.insert(accessTokens).values({
    id: newId('tok'),
    workspaceId: user.workspaceId,
    userId: user.userId,
    kind: 'session',
    sessionIdHash: user.sessionHash,
    scopes: scopesForMember(user.plan, user.role),
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt,
  });
  return { accessToken: token, expiresAt: expiresAt.toISOString() };
}

/** The person's sessions, most recently used first, as Settings → Security lists them. */
export async function listSessions(services: Pick<Services, 'db' | 'clock'>, user: Pick<SignedInUser, 'userId' | 'sessionHash'>) {
  const rows = await services.db
    .select({ idHash: sessions.idHash, id: sessions.id, userAgent: sessions.userAgent, address: sessions.address, workspaceName: workspaces.name, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .where(and(eq(sessions.userId, user.userId), gt(sessions.expiresAt, services.clock.now())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map(({ idHash, createdAt, lastSeenAt, ...rest }) => ({
    ...rest,
    current: idHash === user.sessionHash,
    createdAt: createdAt.toISOString(),
    lastSeenAt: lastSeenAt.toISOString(),
  }));
}

/** Ends one of the person's sessions, by its id; false when they have none of that id. */
export async function endSessionById(services: Pick<Services, 'db'>, userId: string, id: string): Promise<boolean> {
  const ended = await services.db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, id))).returning({ id: sessions.id });
  return ended.length > 0;
}

/** Ends every session of the person but this one (and the tokens minted from them); how many ended. */
export async function endOtherSessions(db: Tx, user: Pick<SignedInUser, 'userId' | 'sessionHash'>): Promise<number> {
  const ended = await db.delete(sessions).where(and(eq(sessions.userId, user.userId), ne(sessions.idHash, user.sessionHash))).returning({ id: sessions.id });
  return ended.length;
}
