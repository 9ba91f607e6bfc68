import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessTokenSchema,
  ApiKeyListSchema,
  CreateApiKeyResponseSchema,
  SessionSchema,
  SetupStateSchema,
} from '../../contract/dashboard.js';
import { MeSchema } from '../../contract/me.js';
import { scopesForPlan } from '../../contract/scopes.js';
import { apiKeys, workspaces } from '../db/schema/index.js';
import { expectError, sessionCookieOf, signIn, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const newEmail = () => `someone-${randomUUID().slice(0, 8)}@example.test`;

/** The sign-in request itself, whatever it answers (`signIn` from the harness wants a 200 and returns the cookie). */
function postSignIn(s: TestServer, email: string, password: string, headers: Record<string, string> = {}) {
  return s.fetch('/api/dashboard/signin', { method: 'POST', headers, json: { email, password } });
}

describe('setup', () => {
  it('offers to create the first workspace on an empty server, and no longer once one exists', async () => {
    const fresh = await startTestServer();
    try {
      const before = await fresh.fetch('/api/dashboard/setup');
      expect(SetupStateSchema.parse(await before.json())).toEqual({ needsFirstWorkspace: true, signup: 'open', invite: null });
      const signup = await fresh.fetch('/api/dashboard/signup', {
        method: 'POST',
        json: { email: newEmail(), password: 'a long enough password', workspaceName: 'First' },
      });
      expect(signup.status).toBe(201);
      const after = await fresh.fetch('/api/dashboard/setup');
      expect(SetupStateSchema.parse(await after.json())).toEqual({ needsFirstWorkspace: false, signup: 'open', invite: null });
    } finally {
      await fresh.stop();
    }
  });
});

describe('sign-up', () => {
  it('creates a free workspace and signs in with an HttpOnly, SameSite=Lax session cookie', async () => {
    // Not the server's first account, which is the operator's and starts paid (operator.test.ts).
    await server.createWorkspace();
    const email = newEmail();
    const res = await server.fetch('/api/dashboard/signup', {
      method: 'POST',
      json: { email: `  ${email.toUpperCase()} `, password: 'a long enough password', workspaceName: '  Acme Ltd ' },
    });
    expect(res.status).toBe(201);
    const session = SessionSchema.parse(await res.json());
    expect(session.user.email).toBe(email);
    expect(session.workspace).toMatchObject({ name: 'Acme Ltd', plan: 'free', planUntil: null });

    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('parcel_session='))!;
    const attributes = setCookie.split(/;\s*/).map((a) => a.toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    // Served over plain http here, so the cookie must not demand https.
    expect(attributes).not.toContain('secure');

    const [row] = await server.services.db.select().from(workspaces).where(eq(workspaces.id, session.workspace.id));
    expect(row?.plan).toBe('free');

    const current = await server.fetch('/api/dashboard/session', { headers: { cookie: sessionCookieOf(res) } });
    expect(SessionSchema.parse(await current.json())).toEqual(session);
  });

  it('answers 409 for an email that already has an account, whatever its case', async () => {
    const email = newEmail();
    const body = { password: 'a long enough password', workspaceName: 'Twice' };
    expect((await server.fetch('/api/dashboard/signup', { method: 'POST', json: { ...body, email } })).status).toBe(201);
    const again = await server.fetch('/api/dashboard/signup', { method: 'POST', json: { ...body, email: email.toUpperCase() } });
    const error = await expectError(again, 409, 'conflict');
    expect(error.details.fields).toEqual([expect.objectContaining({ path: 'email' })]);
    expect(again.headers.getSetCookie()).toEqual([]);
  });
});

describe('sign-in', () => {
  it('answers 401 to a wrong password and sets no cookie', async () => {
    const ws = await server.createWorkspace();
    const res = await postSignIn(server, ws.email, 'not the password');
    await expectError(res, 401, 'unauthorized');
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const ws = await server.createWorkspace();
    const wrongPassword = await postSignIn(server, ws.email, 'not the password');
    const unknownEmail = await postSignIn(server, newEmail(), 'not the password');
    expect(unknownEmail.status).toBe(401);
    expect(await unknownEmail.text()).toBe(await wrongPassword.text());
  });

  it('refuses even the right password with 429 after too many failures, until 15 minutes have passed', async () => {
    const limited = await startTestServer({ SIGNIN_ATTEMPTS_PER_15_MINUTES: '3' });
    try {
      const attempts = limited.services.config.SIGNIN_ATTEMPTS_PER_15_MINUTES;
      const ws = await limited.createWorkspace();
      for (let i = 0; i < attempts; i++) expect((await postSignIn(limited, ws.email, `wrong ${i}`)).status).toBe(401);

      const locked = await postSignIn(limited, ws.email, ws.password);
      await expectError(locked, 429, 'rate_limited');
      const retryAfter = Number(locked.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(locked.headers.getSetCookie()).toEqual([]);

      limited.clock.advance(15 * 60_000);
      const unlocked = await postSignIn(limited, ws.email, ws.password);
      expect(unlocked.status).toBe(200);
      expect(SessionSchema.parse(await unlocked.json()).workspace.id).toBe(ws.id);
    } finally {
      await limited.stop();
    }
  });

  it('signs out: the session ends and its cookie stops working', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(200);

    const out = await server.fetch('/api/dashboard/signout', { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('parcel_session='))).toMatch(/max-age=0|expires=thu, 01 jan 1970/i);
    await expectError(await server.fetch('/api/dashboard/session', { headers: { cookie } }), 401, 'unauthorized');
    await expectError(await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } }), 401, 'unauthorized');
  });
});

describe('dashboard tokens', () => {
  it('work on /api/v1 as the session user until ACCESS_TOKEN_TTL_SECONDS have passed', async () => {
    const ttlMs = server.services.config.ACCESS_TOKEN_TTL_SECONDS * 1000;
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const issuedAt = server.clock.now().getTime();
    const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(200);
    const { accessToken, expiresAt } = AccessTokenSchema.parse(await res.json());
    expect(accessToken).toMatch(/^st_[0-9A-Za-z]{43}$/);
    expect(new Date(expiresAt).getTime()).toBe(issuedAt + ttlMs);

    const me = await server.fetch('/api/v1/me', { token: accessToken });
    expect(me.status).toBe(200);
    const body = MeSchema.parse(await me.json());
    expect(body.key.via).toBe('session');
    expect(body.workspace.id).toBe(ws.id);

    server.clock.advance(ttlMs - 1000);
    expect((await server.fetch('/api/v1/me', { token: accessToken })).status).toBe(200);
    server.clock.advance(1000);
    await expectError(await server.fetch('/api/v1/me', { token: accessToken }), 401, 'unauthorized');
  });

  it('are only given to a signed-in user', async () => {
    await expectError(await server.fetch('/api/dashboard/token', { method: 'POST' }), 401, 'unauthorized');
  });

  it('hold only the scopes the plan allows, re-checked on every request as the plan changes', async () => {
    const ws = await server.createWorkspace();
    const token = await dashboardToken(await signIn(server, ws));
    const scopesNow = async () => MeSchema.parse(await (await server.fetch('/api/v1/me', { token })).json()).key.scopes;

    expect(await scopesNow()).toEqual(scopesForPlan('free'));
    expect(await scopesNow()).not.toContain('collections:write');
    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 60_000));
    expect(await scopesNow()).toContain('collections:write');
    // The paid plan lapses: from the next request on the same token lacks the paid-only scope.
    server.clock.advance(60_000);
    expect(await scopesNow()).toEqual(scopesForPlan('free'));
  });

  it('stop working on the next request after their session signs out; other sessions keep theirs', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const otherCookie = await signIn(server, ws);
    const token = await dashboardToken(cookie);
    const otherToken = await dashboardToken(otherCookie);
    expect((await server.fetch('/api/v1/me', { token })).status).toBe(200);

    expect((await server.fetch('/api/dashboard/signout', { method: 'POST', headers: { cookie } })).status).toBe(204);
    await expectError(await server.fetch('/api/v1/me', { token }), 401, 'unauthorized');
    expect((await server.fetch('/api/v1/me', { token: otherToken })).status).toBe(200);
  });

  it('never outlive the session they were minted from', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const sessionEnds = server.clock.now().getTime() + server.services.config.SESSION_TTL_SECONDS * 1000;
    server.clock.advance(server.services.config.SESSION_TTL_SECONDS * 1000 - 60_000);
    const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } });
    const { accessToken, expiresAt } = AccessTokenSchema.parse(await res.json());
    expect(new Date(expiresAt).getTime()).toBe(sessionEnds);
    server.clock.advance(60_000);
    await expectError(await server.fetch('/api/v1/me', { token: accessToken }), 401, 'unauthorized');
  });
});

async function dashboardToken(cookie: string): Promise<string> {
  const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } });
  expect(res.status).toBe(200);
  return AccessTokenSchema.parse(await res.json()).accessToken;
}

describe('API keys', () => {
  it('show the secret once on creation; the list has only its hint', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/keys', {
      method: 'POST',
      headers: { cookie },
      json: { name: 'CI deploys', scopes: ['transfers:write', 'contacts:read'] },
    });
    expect(res.status).toBe(201);
    const { key, secret } = CreateApiKeyResponseSchema.parse(await res.json());
    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
    expect(key).toMatchObject({ name: 'CI deploys', scopes: ['transfers:write', 'contacts:read'], lastUsedAt: null });
    expect(secret.endsWith(key.hint.slice(-4))).toBe(true);
    expect(key.hint).not.toContain(secret.slice(8, -4));

    const list = await server.fetch('/api/dashboard/keys', { headers: { cookie } });
    const listText = await list.text();
    expect(listText).not.toContain(secret);
    expect(listText).not.toContain(secret.slice(8));
    expect(ApiKeyListSchema.parse(JSON.parse(listText)).keys).toEqual([key]);

    const me = MeSchema.parse(await (await server.fetch('/api/v1/me', { token: secret })).json());
    expect(me.key).toMatchObject({ id: key.id, name: 'CI deploys', via: 'key', scopes: ['transfers:write', 'contacts:read'] });
  });

  it('are stored only as the SHA-256 of the secret', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'hashed', scopes: ['contacts:read'] } });
    const { key, secret } = CreateApiKeyResponseSchema.parse(await res.json());

    const { rows } = await server.services.db.$client.query('SELECT * FROM api_keys WHERE id = $1', [key.id]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(8));
    const [row] = await server.services.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
  });

  it('cannot carry collections:write on a free workspace: 402 upgrade_required', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/keys', {
      method: 'POST',
      headers: { cookie },
      json: { name: 'uploader', scopes: ['collections:read', 'collections:write'] },
    });
    await expectError(res, 402, 'upgrade_required');
    const list = ApiKeyListSchema.parse(await (await server.fetch('/api/dashboard/keys', { headers: { cookie } })).json());
    expect(list.keys).toEqual([]);
  });

  let cookieForInvalidKeys: string | undefined;
  it.each([
    ['no scopes', []],
    ['an unknown scope', ['transfers:read', 'billing:write']],
    ['the OAuth-only send scope', ['transfers:send']],
  ])('refuses a key with %s: 400 naming scopes', async (_, scopes) => {
    cookieForInvalidKeys ??= await signIn(server, await server.createWorkspace());
    const cookie = cookieForInvalidKeys;
    const res = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'bad', scopes } });
    const error = await expectError(res, 400, 'invalid_request');
    const paths = (error.details.fields as { path: string }[]).map((f) => f.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^scopes(\.\d+)?$/);
  });

  it('are created and listed only for a signed-in user', async () => {
    await expectError(await server.fetch('/api/dashboard/keys'), 401, 'unauthorized');
    await expectError(
      await server.fetch('/api/dashboard/keys', { method: 'POST', json: { name: 'x', scopes: ['contacts:read'] } }),
      401,
      'unauthorized',
    );
  });

  it('stop working as soon as they are revoked, and leave the list', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const created = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'short-lived', scopes: ['contacts:read'] } });
    const { key, secret } = CreateApiKeyResponseSchema.parse(await created.json());
    expect((await server.fetch('/api/v1/me', { token: secret })).status).toBe(200);

    const revoked = await server.fetch(`/api/dashboard/keys/${key.id}`, { method: 'DELETE', headers: { cookie } });
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe('');
    await expectError(await server.fetch('/api/v1/me', { token: secret }), 401, 'unauthorized');
    const list = ApiKeyListSchema.parse(await (await server.fetch('/api/dashboard/keys', { headers: { cookie } })).json());
    expect(list.keys.map((k) => k.id)).not.toContain(key.id);
    await expectError(await server.fetch(`/api/dashboard/keys/${key.id}`, { method: 'DELETE', headers: { cookie } }), 404, 'not_found');
  });

  it("answer 404 when another workspace's key is revoked, and that key keeps working", async () => {
    const victim = await server.createWorkspace();
    const victimCookie = await signIn(server, victim);
    const created = await server.fetch('/api/dashboard/keys', {
      method: 'POST',
      headers: { cookie: victimCookie },
      json: { name: 'theirs', scopes: ['contacts:read'] },
    });
    const { key, secret } = CreateApiKeyResponseSchema.parse(await created.json());

    const attacker = await server.createWorkspace();
    const attackerCookie = await signIn(server, attacker);
    const res = await server.fetch(`/api/dashboard/keys/${key.id}`, { method: 'DELETE', headers: { cookie: attackerCookie } });
    await expectError(res, 404, 'not_found');
    expect((await server.fetch('/api/v1/me', { token: secret })).status).toBe(200);
  });
});

describe('cross-origin requests', () => {
  it('refuse a state-changing request from another origin with 403, and change nothing', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const evil = { cookie, origin: 'http://evil.example' };

    const create = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: evil, json: { name: 'planted', scopes: ['contacts:read'] } });
    await expectError(create, 403, 'forbidden');
    const signout = await server.fetch('/api/dashboard/signout', { method: 'POST', headers: evil });
    await expectError(signout, 403, 'forbidden');
    await expectError(await postSignIn(server, ws.email, ws.password, { origin: 'http://evil.example' }), 403, 'forbidden');

    const list = ApiKeyListSchema.parse(await (await server.fetch('/api/dashboard/keys', { headers: { cookie } })).json());
    expect(list.keys).toEqual([]);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(200);
  });

  it('allow the same request from the server\'s own origin', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/keys', {
      method: 'POST',
      headers: { cookie, origin: new URL(server.url).origin },
      json: { name: 'own origin', scopes: ['contacts:read'] },
    });
    expect(res.status).toBe(201);
  });
});

describe('account basics', () => {
  it('renames the workspace, trimmed, and refuses an empty or over-long name naming the field', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/workspace', { method: 'PATCH', headers: { cookie }, json: { name: '  Difference Engines  ' } });
    expect(res.status).toBe(200);
    expect(SessionSchema.parse(await res.json()).workspace.name).toBe('Difference Engines');
    const session = SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie } })).json());
    expect(session.workspace.name).toBe('Difference Engines');

    for (const name of ['   ', 'x'.repeat(101)]) {
      const bad = await server.fetch('/api/dashboard/workspace', { method: 'PATCH', headers: { cookie }, json: { name } });
      const error = await expectError(bad, 400, 'invalid_request');
      expect(error.details.fields).toEqual([expect.objectContaining({ path: 'name' })]);
    }
    await expectError(await server.fetch('/api/dashboard/workspace', { method: 'PATCH', json: { name: 'Nobody' } }), 401, 'unauthorized');
  });

  it('changes the password given the current one, and signs out every other session', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const elsewhere = await signIn(server, ws);
    const elsewhereToken = (await (await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie: elsewhere } })).json()) as { accessToken: string };

    const wrong = await server.fetch('/api/dashboard/password', { method: 'POST', headers: { cookie }, json: { currentPassword: 'not it at all', newPassword: 'a brand new passphrase' } });
    expect((await expectError(wrong, 400, 'invalid_request')).details.fields).toEqual([expect.objectContaining({ path: 'currentPassword' })]);
    const short = await server.fetch('/api/dashboard/password', { method: 'POST', headers: { cookie }, json: { currentPassword: ws.password, newPassword: 'short' } });
    expect((await expectError(short, 400, 'invalid_request')).details.fields).toEqual([expect.objectContaining({ path: 'newPassword' })]);

    const ok = await server.fetch('/api/dashboard/password', { method: 'POST', headers: { cookie }, json: { currentPassword: ws.password, newPassword: 'a brand new passphrase' } });
    expect(ok.status).toBe(204);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(200);
    await expectError(await server.fetch('/api/dashboard/session', { headers: { cookie: elsewhere } }), 401, 'unauthorized');
    await expectError(await server.fetch('/api/v1/me', { token: elsewhereToken.accessToken }), 401, 'unauthorized');
    await expectError(await postSignIn(server, ws.email, ws.password), 401, 'unauthorized');
    expect((await postSignIn(server, ws.email, 'a brand new passphrase')).status).toBe(200);
  });

  it('counts wrong current passwords like failed sign-ins, so a stolen session cannot guess on', async () => {
    // A fresh window: the tests before shared this address's count.
    server.clock.advance(15 * 60_000);
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    const limit = server.services.config.SIGNIN_ATTEMPTS_PER_15_MINUTES;
    for (let i = 0; i < limit; i++) {
      const res = await server.fetch('/api/dashboard/password', { method: 'POST', headers: { cookie }, json: { currentPassword: `guess ${i}`, newPassword: 'a brand new passphrase' } });
      expect(res.status).toBe(400);
    }
    const refused = await server.fetch('/api/dashboard/password', { method: 'POST', headers: { cookie }, json: { currentPassword: ws.password, newPassword: 'a brand new passphrase' } });
    await expectError(refused, 429, 'rate_limited');
    server.clock.advance(15 * 60_000);
  });
});
