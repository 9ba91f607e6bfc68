import { and, eq, ne } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import {
  ChangePasswordRequestSchema,
  CreateApiKeyRequestSchema,
  RenameWorkspaceRequestSchema,
  SetupQuerySchema,
  SignInRequestSchema,
  SignUpRequestSchema,
} from '../../contract/dashboard.js';
import { scopesForPlan } from '../../contract/scopes.js';
import { apiKeyBody, createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import { newId, newSessionToken, sha256 } from '../core/secrets.js';
import { accessTokens, sessions, users, workspaces } from '../db/schema/index.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import { clientAddress } from '../http/headers.js';
import { parseJsonBody, parseQuery, pathId } from '../http/validate.js';
import { createWorkspaceWithOwner, EmailTakenError, findUserByEmail } from '../workspaces/accounts.js';
import { contactImportRoutes } from './contacts.js';
import { mailRoutes } from './mail.js';
import { notificationSettingsRoutes } from './notification-settings.js';
import { adminRoutes } from './admin-routes.js';
import { passwordResetRoutes } from './password-reset.js';
import { vaultRoutes } from './vault.js';
import { connectedAppRoutes } from './connected-apps.js';
import { invitedAddress, signupPolicy } from '../workspaces/operator.js';
import { endSession, requireSession, sameOriginOnly, sessionBody, signInAs } from './session.js';

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * Password guesses, at sign-in or when changing a password, are counted per account and per
 * address, so neither guessing one password everywhere nor many passwords for one account (or
 * from a stolen session) gets far. Refuses with 429 once either has used up its attempts.
 */
async function passwordAttempts(c: Context<AppEnv>, email: string) {
  const { clock, rateLimits, config } = c.var.services;
  const nowMs = clock.now().getTime();
  const buckets = [`signin-email:${email}`, `signin-addr:${clientAddress(c, config.TRUST_PROXY)}`];
  const counts = await Promise.all(buckets.map((b) => rateLimits.peek(b, FIFTEEN_MINUTES, nowMs)));
  if (counts.some((n) => n >= config.SIGNIN_ATTEMPTS_PER_15_MINUTES)) {
    const retryAfter = Math.ceil((FIFTEEN_MINUTES - (nowMs % FIFTEEN_MINUTES)) / 1000);
    throw new ApiError('rate_limited', 'Too many wrong passwords; try again later', { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  return { failed: () => Promise.all(buckets.map((b) => rateLimits.hit(b, FIFTEEN_MINUTES, nowMs))) };
}

/** /api/dashboard: what the public API does not cover. Session cookie, same origin only. */
export function dashboardRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', sameOriginOnly);

  app.get('/setup', async (c) => {
    const { db, clock, config } = c.var.services;
    const [any] = await db.select({ id: workspaces.id }).from(workspaces).limit(1);
    const invited = await invitedAddress(db, parseQuery(c, SetupQuerySchema).invite, clock.now());
    c.header('Cache-Control', 'no-store');
    return c.json({ needsFirstWorkspace: !any, signup: config.SIGNUP, invite: invited ? { email: invited } : null });
  });

  app.post('/signup', async (c) => {
    const input = await parseJsonBody(c, SignUpRequestSchema);
    const { db, clock, config } = c.var.services;
    const now = clock.now();
    try {
      const { user, workspace } = await createWorkspaceWithOwner(db, now, {
        email: input.email,
        password: input.password,
        workspaceName: input.workspaceName,
        referralCode: input.ref,
        plan: config.DEFAULT_PLAN,
        admit: signupPolicy(config.SIGNUP, input.email, input.invite, now),
      });
      return await signInAs(c, user, workspace, 201);
    } catch (err) {
      if (err instanceof EmailTakenError) {
        throw new ApiError('conflict', 'An account with this email already exists; sign in instead', {
          reason: 'email_taken',
          fields: [{ path: 'email', message: 'An account with this email already exists' }],
        });
      }
      throw err;
    }
  });

  app.post('/signin', async (c) => {
    const input = await parseJsonBody(c, SignInRequestSchema);
    const { db } = c.var.services;
    const attempts = await passwordAttempts(c, input.email);
    const found = await findUserByEmail(db, input.email);
    const ok = await verifyPassword(input.password, found?.user.passwordHash ?? (await dummyPasswordHash));
    if (!found || !ok) {
      await attempts.failed();
      throw new ApiError('unauthorized', 'Wrong email or password');
    }
    return signInAs(c, found.user, found.ws);
  });

  app.post('/signout', async (c) => {
    await endSession(c);
    return c.body(null, 204);
  });

  app.get('/session', requireSession, (c) => c.json(sessionBody(c.var.user, c.var.services.config)));

  app.patch('/workspace', requireSession, async (c) => {
    const { name } = await parseJsonBody(c, RenameWorkspaceRequestSchema);
    const user = c.var.user;
    await c.var.services.db.update(workspaces).set({ name }).where(eq(workspaces.id, user.workspaceId));
    return c.json(sessionBody({ ...user, workspaceName: name }, c.var.services.config));
  });

  /**
   * Changes the signed-in user's password, given the current one. Every other session of the user
   * ends (and the dashboard tokens minted from them); this one stays signed in.
   */
  app.post('/password', requireSession, async (c) => {
    const input = await parseJsonBody(c, ChangePasswordRequestSchema);
    const { db } = c.var.services;
    const user = c.var.user;
    const attempts = await passwordAttempts(c, user.email);
    const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.userId));
    if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
      await attempts.failed();
      throw new ApiError('invalid_request', 'The current password is not right', {
        location: 'body',
        fields: [{ path: 'currentPassword', message: 'This is not your current password' }],
      });
    }
    const passwordHash = await hashPassword(input.newPassword);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.userId));
      await tx.delete(sessions).where(and(eq(sessions.userId, user.userId), ne(sessions.idHash, user.sessionHash)));
    });
    return c.body(null, 204);
  });

  /**
   * A short-lived bearer token, so the dashboard uses /api/v1 exactly as an integrator does. It
   * belongs to the session (signing out deletes it) and never outlives it, and it holds only the
   * scopes the workspace's plan allows, re-checked on every request (see resolveCaller).
   */
  app.post('/token', requireSession, async (c) => {
    const { db, clock, config } = c.var.services;
    const user = c.var.user;
    const now = clock.now();
    const token = newSessionToken();
    const expiresAt = new Date(Math.min(now.getTime() + config.ACCESS_TOKEN_TTL_SECONDS * 1000, user.sessionExpiresAt.getTime()));
    await db.insert(accessTokens).values({
      id: newId('tok'),
      workspaceId: user.workspaceId,
      userId: user.userId,
      kind: 'session',
      sessionIdHash: user.sessionHash,
      scopes: scopesForPlan(user.plan),
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt,
    });
    return c.json({ accessToken: token, expiresAt: expiresAt.toISOString() });
  });

  app.get('/keys', requireSession, async (c) => {
    const rows = await listApiKeys(c.var.services.db, c.var.user.workspaceId);
    return c.json({ keys: rows.map(apiKeyBody) });
  });

  app.post('/keys', requireSession, async (c) => {
    const input = await parseJsonBody(c, CreateApiKeyRequestSchema);
    const { db, clock } = c.var.services;
    const user = c.var.user;
    const { row, secret } = await createApiKey(db, clock.now(), user.workspaceId, user.plan, input.name, input.scopes);
    return c.json({ key: apiKeyBody(row), secret }, 201);
  });

  app.delete('/keys/:id', requireSession, async (c) => {
    const { db, clock } = c.var.services;
    const id = pathId(c, 'id', 'key', 'API key');
    if (!(await revokeApiKey(db, clock.now(), c.var.user.workspaceId, id))) throw notFound('API key');
    return c.body(null, 204);
  });

  app.route('/contacts', contactImportRoutes());
  app.route('/mail', mailRoutes());
  app.route('/notifications', notificationSettingsRoutes());
  app.route('/password-reset', passwordResetRoutes());
  app.route('/admin', adminRoutes());
  app.route('/vault', vaultRoutes());
  app.route('/connected-apps', connectedAppRoutes());

  return app;
}
