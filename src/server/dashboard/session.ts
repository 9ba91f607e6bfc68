import { and, eq, gt } from 'drizzle-orm';
import { activeWorkspace, refuseInactiveWorkspace } from '../workspaces/active.js';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBase62, sha256 } from '../core/secrets.js';
import { sessions, users, workspaces } from '../db/schema/index.js';
import type { AppEnv, SignedInUser } from '../http/env.js';
import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import { billingOff, effectivePlan, type Billing } from '../workspaces/plan.js';

export const SESSION_COOKIE = 'parcel_session';


export async function startSession(c: Context<AppEnv>, userId: string, workspaceId: string): Promise<void> {
  const { db, clock, config } = c.var.services;
  const value = randomBase62(43);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + config.SESSION_TTL_SECONDS * 1000);
  await db.insert(sessions).values({ idHash: sha256(value), userId, workspaceId, createdAt: now, expiresAt });
  setCookie(c, SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.PUBLIC_URL.startsWith('https:'),
    path: '/',
    maxAge: config.SESSION_TTL_SECONDS,
  });
}

export async function endSession(c: Context<AppEnv>): Promise<void> {
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await c.var.services.db.delete(sessions).where(eq(sessions.idHash, sha256(value)));
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

export async function currentUser(services: Services, cookieValue: string | undefined): Promise<SignedInUser | null> {
  if (!cookieValue || cookieValue.length > 100) return null;
  const idHash = sha256(cookieValue);
  const now = services.clock.now();
  const [row] = await services.db
    .select({ user: users, ws: workspaces, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now), activeWorkspace()))
    .limit(1);
  if (!row) return null;
  return { ...signedInUser(row.user, row.ws, now, services.config), sessionHash: idHash, sessionExpiresAt: row.expiresAt };
}

type UserRow = typeof users.$inferSelect;
type WorkspaceRow = typeof workspaces.$inferSelect;

function signedInUser(user: UserRow, ws: WorkspaceRow, now: Date, billing: Billing): Omit<SignedInUser, 'sessionHash' | 'sessionExpiresAt'> {
  return {
    userId: user.id,
    email: user.email,
    isOperator: user.isOperator,
    workspaceId: ws.id,
    workspaceName: ws.name,
    plan: effectivePlan(ws, now, billing),
    planUntil: ws.planUntil,
  };
}

/** Signs the user in (a new session cookie) and answers with the session; a disabled workspace is refused. */
export async function signInAs(c: Context<AppEnv>, user: UserRow, ws: WorkspaceRow, status: 200 | 201 = 200) {
  refuseInactiveWorkspace(ws);
  await startSession(c, user.id, ws.id);
  return c.json(sessionBody(signedInUser(user, ws, c.var.services.clock.now(), c.var.services.config), c.var.services.config), status);
}

export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await currentUser(c.var.services, getCookie(c, SESSION_COOKIE));
  if (!user) throw new ApiError('unauthorized', 'Sign in to continue');
  c.set('user', user);
  await next();
};

/**
 * The session cookie is SameSite=Lax; on top of that, state-changing dashboard requests must come
 * from the app's own origin, which browsers always state in `Origin` on such requests.
 */
export const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (origin && origin !== own && origin !== new URL(c.var.services.config.PUBLIC_URL).origin) {
      throw new ApiError('forbidden', 'Cross-site requests to the dashboard are not allowed');
    }
  }
  await next();
};

export function sessionBody(user: Omit<SignedInUser, 'sessionHash' | 'sessionExpiresAt'>, billing: Billing) {
  return {
    billing: billingOff(billing) ? ('off' as const) : ('on' as const),
    user: { id: user.userId, email: user.email, isOperator: user.isOperator },
    workspace: {
      id: user.workspaceId,
      name: user.workspaceName,
      plan: user.plan,
      planUntil: !billingOff(billing) && user.plan === 'paid' && user.planUntil ? user.planUntil.toISOString() : null,
    },
  };
}
