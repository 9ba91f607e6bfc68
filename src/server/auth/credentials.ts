import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { accessTokens, apiKeys, memberships, oauthStore, sessions, signInDomains, ssoIdentities, users, workspaces } from '../db/schema/index.js';
import type { Caller } from '../core/caller.js';
import type { Services } from '../services.js';
import { refuseInactiveWorkspace } from '../workspaces/active.js';
import { effectivePlan, monthKey } from '../workspaces/plan.js';
import type { CountedCall } from '../ratelimit/buckets.js';
import { scopesForMember, sendScope, type MemberRole } from '../../contract/scopes.js';
import { noteGrantUse } from '../oauth/grants.js';
import { preparedQuery } from '../db/prepared.js';
import { refuseUntilCompliant, sessionMeetsSingleSignOn } from './sessions.js';
import { API_KEY_PATTERN, OAUTH_TOKEN_PATTERN, SESSION_TOKEN_PATTERN, sha256 } from '../core/secrets.js';

const BEARER = /^Bearer ([!-~]+)$/;

/** Extracts the token from `Authorization: Bearer <token>`, or null when the header is absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  return header ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/**
 * What a caller needs of its workspace: who it is, whether it is active, its plan. (Every
 * authenticated request reads this: only these columns, not the whole row.)
 */
const callerWorkspaceColumns = {
  id: workspaces.id,
  name: workspaces.name,
  customDomain: workspaces.customDomain,
  plan: workspaces.plan,
  planUntil: workspaces.planUntil,
  disabledAt: workspaces.disabledAt,
};

/** The workspace columns above, as read. */
type CallerWorkspace = { id: string; name: string; customDomain: string | null; plan: (typeof workspaces.$inferSelect)['plan']; planUntil: Date | null; disabledAt: Date | null };

// Every authenticated request starts with one of these two (or, for an API key on /api/v1, CHARGED_API_KEY_BY_HASH below).
const apiKeyByHash = preparedQuery('api_key_by_hash', (db, name) =>
  db
    .select({ key: { id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes }, ws: callerWorkspaceColumns })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.secretHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .limit(1)
    .prepare(name),
);
/** The member behind a token: read with it, so a removal, a lower role or a disabled person counts at the next request. */
const callerMemberColumns = { role: memberships.role, userId: users.id, name: users.name, email: users.email };

const accessTokenByHash = preparedQuery('access_token_by_hash', (db, name) =>
  db
    .select({
      token: { id: accessTokens.id, kind: accessTokens.kind, scopes: accessTokens.scopes },
      ws: callerWorkspaceColumns,
      member: callerMemberColumns,
      twoStep: { required: workspaces.requireTwoStep, on: sql<boolean>`${users.totpEnabledAt} is not null` },
      // A token minted from a session meets single sign-on as its session does; an assistant's (OAuth) token was approved from one that did.
      singleSignOn: {
        required: workspaces.requireSingleSignOn,
        // Looked up only where it is required: this runs with every request of a dashboard token.
        satisfied: sql<boolean>`not ${workspaces.requireSingleSignOn} or ${accessTokens.kind} <> 'session' or exists (select 1 from ${sessions} where ${sessions.idHash} = ${accessTokens.sessionIdHash} and ${sessionMeetsSingleSignOn(sessions.ssoProviderId, accessTokens.workspaceId)})`,
      },
    })
    .from(accessTokens)
    .innerJoin(workspaces, eq(workspaces.id, accessTokens.workspaceId))
    .innerJoin(memberships, and(eq(memberships.workspaceId, accessTokens.workspaceId), eq(memberships.userId, accessTokens.userId)))
    .innerJoin(users, and(eq(users.id, accessTokens.userId), isNull(users.disabledAt)))
    .where(and(eq(accessTokens.tokenHash, sql.placeholder('hash')), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare(name),
);

/** Last use is shown to people, not audited: a minute's precision saves a write per request. */
const KEY_USE_PRECISION_MS = 60_000;
/** When this process last recorded each key's use, so that it sends that write once a minute, not once a request. */
const recordedKeyUse = new Map<string, number>();

function noteKeyUse(services: Services, keyId: string, now: Date): void {
  const recorded = recordedKeyUse.get(keyId);
  if (recorded !== undefined && Math.abs(now.getTime() - recorded) < KEY_USE_PRECISION_MS) return;
  // Bounded: forgetting merely costs one more write for a key.
  if (recordedKeyUse.size >= 10_000) recordedKeyUse.clear();
  recordedKeyUse.set(keyId, now.getTime());
  // Other instances record it too: the condition keeps the stored time at a minute's precision.
  void services.db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`${new Date(now.getTime() - KEY_USE_PRECISION_MS)}`))))
    .catch((err) => services.log.warn({ err }, 'could not record key use'));
}

/**
 * An API key looked up and its workspace's call of this month counted, in one statement: the key
 * is what integrators call the API with, so this is the statement nearly every /api/v1 request
 * starts with, and one round trip fewer per call shows in the requests a core serves
 * (docs/performance.md). A disabled workspace's call is not counted (it is refused).
 */
const CHARGED_API_KEY_BY_HASH = {
  name: 'charged_api_key_by_hash',
  text: `WITH k AS (
    SELECT k.id AS key_id, k.name AS key_name, k.scopes, w.id, w.name, w.custom_domain, w.plan, w.plan_until, w.disabled_at
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE k.secret_hash = $1 AND k.revoked_at IS NULL LIMIT 1
  ), charged AS (
    INSERT INTO monthly_usage (workspace_id, month, api_calls)
    SELECT id, $2, 1 FROM k WHERE disabled_at IS NULL
    ON CONFLICT (workspace_id, month) DO UPDATE SET api_calls = monthly_usage.api_calls + 1
    RETURNING api_calls
  )
  SELECT k.*, (SELECT api_calls FROM charged) AS month_calls FROM k`,
};

interface ChargedKeyRow {
  key_id: string;
  key_name: string;
  scopes: string[];
  id: string;
  name: string;
  custom_domain: string | null;
  plan: string;
  plan_until: Date | null;
  disabled_at: Date | null;
  /** int8, as text. */
  month_calls: string | null;
}

function keyCaller(services: Services, key: { id: string; name: string; scopes: string[] }, ws: CallerWorkspace, now: Date): Caller {
  refuseInactiveWorkspace(ws);
  noteKeyUse(services, key.id, now);
  return {
    workspaceId: ws.id,
    workspaceName: ws.name,
    customDomain: ws.customDomain,
    plan: effectivePlan(ws, now, services.config),
    via: 'key',
    credentialId: key.id,
    credentialName: key.name,
    userId: null,
    member: null,
    role: 'owner',
    scopes: key.scopes,
    canEmail: true,
  };
}

/**
 * Resolves a bearer token to its caller as resolveCaller does and, for an API key, counts the
 * call against its workspace's monthly allowance in the same statement: `counted` is the month
 * and its count with this call (null when nothing was counted; chargeCaller then counts it).
 */
export async function resolveCallerCountingCall(services: Services, token: string): Promise<{ caller: Caller | null; counted: CountedCall | null }> {
  if (!API_KEY_PATTERN.test(token)) return { caller: await resolveCaller(services, token), counted: null };
  const now = services.clock.now();
  const month = monthKey(now);
  const { rows } = await services.db.$client.query<ChargedKeyRow>({ ...CHARGED_API_KEY_BY_HASH, values: [sha256(token), month] });
  const row = rows[0];
  if (!row) return { caller: null, counted: null };
  const ws: CallerWorkspace = {
    id: row.id,
    name: row.name,
    customDomain: row.custom_domain,
    plan: row.plan as CallerWorkspace['plan'],
    planUntil: row.plan_until,
    disabledAt: row.disabled_at,
  };
  const caller = keyCaller(services, { id: row.key_id, name: row.key_name, scopes: row.scopes }, ws, now);
  return { caller, counted: row.month_calls === null ? null : { month, calls: Number(row.month_calls) } };
}

function memberOf(m: { role: MemberRole; userId: string; name: string | null; email: string }): Pick<Caller, 'userId' | 'member' | 'role'> {
  return { userId: m.userId, member: { userId: m.userId, name: m.name, email: m.email }, role: m.role };
}

/**
 * Resolves a bearer token to its caller, or null for every kind of bad credential alike
 * (malformed, unknown, revoked, expired): the caller cannot tell them apart.
 */
export async function resolveCaller(services: Services, token: string): Promise<Caller | null> {
  const { db, clock } = services;
  const now = clock.now();
  if (API_KEY_PATTERN.test(token)) {
    const [row] = await apiKeyByHash(db).execute({ hash: sha256(token) });
    if (!row) return null;
    return keyCaller(services, row.key, row.ws, now);
  }
  if (SESSION_TOKEN_PATTERN.test(token)) {
    const [row] = await accessTokenByHash(db).execute({ hash: sha256(token), now });
    if (!row) return null;
    refuseInactiveWorkspace(row.ws);
    // So are the workspace's requirements (two-step verification, single sign-on), made after the token was.
    refuseUntilCompliant({
      workspaceRequiresTwoStep: row.twoStep.required,
      twoStepOn: row.twoStep.on,
      workspaceName: row.ws.name,
      workspaceRequiresSingleSignOn: row.singleSignOn.required,
      singleSignOnSatisfied: row.singleSignOn.satisfied,
    });
    // The plan and the role are live: a token minted on a paid plan loses its paid-only scopes when
    // the plan lapses, and a dashboard token (which holds what the plan and the role allow) gains
    // them on upgrade, or loses the admins' when its member is made a member.
    const plan = effectivePlan(row.ws, now, services.config);
    const allowed: readonly string[] = scopesForMember(plan, row.member.role);
    const scopes = row.token.kind === 'session' ? [...allowed] : row.token.scopes.filter((s) => allowed.includes(s));
    return {
      workspaceId: row.ws.id,
      workspaceName: row.ws.name,
      customDomain: row.ws.customDomain,
      plan,
      via: row.token.kind,
      credentialId: row.token.id,
      credentialName: null,
      ...memberOf(row.member),
      scopes,
      canEmail: row.token.kind === 'session' || row.token.scopes.includes(sendScope),
    };
  }
  if (OAUTH_TOKEN_PATTERN.test(token)) return resolveOAuthCaller(services, token);
  return null;
}

/**
 * An AI assistant's access token (oauth/): a live AccessToken of the authorization server's store,
 * looked up by its hash. The grant is the credential (rate limits per grant, revocation per grant);
 * its scopes are what the owner left ticked, held to the plan as it is now, and it may email
 * recipients only if `transfers:send` was granted.
 */
async function resolveOAuthCaller(services: Services, token: string): Promise<Caller | null> {
  const { db, clock } = services;
  // One query on every request: the token, the workspace and the member who approved it (`<workspaceId>/<userId>`).
  const [row] = await db
    .select({
      payload: oauthStore.payload,
      grantId: oauthStore.grantId,
      ws: callerWorkspaceColumns,
      member: callerMemberColumns,
      twoStep: { required: workspaces.requireTwoStep, on: sql<boolean>`${users.totpEnabledAt} is not null` },
      // The grant does not say how its approver had signed in: it meets single sign-on while they sign in through a provider of the workspace's.
      singleSignOn: {
        required: workspaces.requireSingleSignOn,
        satisfied: sql<boolean>`not ${workspaces.requireSingleSignOn} or exists (select 1 from ${ssoIdentities} join ${signInDomains} on ${signInDomains.providerId} = ${ssoIdentities.providerId} where ${ssoIdentities.userId} = ${users.id} and ${signInDomains.workspaceId} = ${workspaces.id})`,
      },
    })
    .from(oauthStore)
    .innerJoin(workspaces, eq(workspaces.id, sql`split_part(${oauthStore.accountId}, '/', 1)`))
    .innerJoin(memberships, and(eq(memberships.workspaceId, workspaces.id), eq(memberships.userId, sql`split_part(${oauthStore.accountId}, '/', 2)`)))
    .innerJoin(users, and(eq(users.id, memberships.userId), isNull(users.disabledAt)))
    .where(and(eq(oauthStore.model, 'AccessToken'), eq(oauthStore.id, sha256(token)), gt(oauthStore.expiresAt, sql`now()`)));
  if (!row?.grantId) return null;
  const { ws } = row;
  refuseInactiveWorkspace(ws);
  // The workspace's requirements hold for an assistant's grant too, also one approved before them.
  refuseUntilCompliant({
    workspaceRequiresTwoStep: row.twoStep.required,
    twoStepOn: row.twoStep.on,
    workspaceName: ws.name,
    workspaceRequiresSingleSignOn: row.singleSignOn.required,
    singleSignOnSatisfied: row.singleSignOn.satisfied,
  });
  const now = clock.now();
  const plan = effectivePlan(ws, now, services.config);
  const allowed: readonly string[] = scopesForMember(plan, row.member.role);
  const granted = String(row.payload.scope ?? '').split(' ').filter(Boolean);
  void noteGrantUse(db, row.grantId, now).catch((err: unknown) => services.log.warn({ err }, 'could not record an app’s use'));
  return {
    workspaceId: ws.id,
    workspaceName: ws.name,
    customDomain: ws.customDomain,
    plan,
    via: 'oauth',
    credentialId: row.grantId,
    credentialName: null,
    ...memberOf(row.member),
    scopes: granted.filter((s) => allowed.includes(s)),
    canEmail: granted.includes(sendScope),
    audience: typeof row.payload.aud === 'string' ? row.payload.aud : undefined,
  };
}
