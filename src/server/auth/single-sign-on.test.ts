import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema } from '../../contract/dashboard.js';
import { Secret, TOTP } from 'otpauth';
import { SingleSignOnSettingsSchema, TwoStepSetupSchema } from '../../contract/security.js';
import { activity, identityProviders, memberships, ssoIdentities, users, workspaces } from '../db/schema/index.js';
import { startTestIdentityProvider, type TestIdentityProvider } from '../test/oidc-idp.js';
import { expectError, sessionCookieOf, signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { addIdentityProvider, removeIdentityProvider } from './single-sign-on.js';

const CLIENT_SECRET = 'parcel-client-secret-that-is-long-enough';
const REDIRECT_URI = 'http://127.0.0.1/api/dashboard/signin/sso/callback';

let server: TestServer;
let idp: TestIdentityProvider;
let providerId: string;
/** The workspace acme.test is tied to, and its owner (owner@acme.test, who has a password too). */
let acme: TestWorkspace;
let acmeOwnerCookie: string;

beforeAll(async () => {
  [server, idp] = await Promise.all([
    startTestServer({ SSO_ALLOW_INSECURE: '1' }),
    startTestIdentityProvider({
      clients: [
        { client_id: 'parcel', client_secret: CLIENT_SECRET, redirect_uris: [REDIRECT_URI] },
        { client_id: 'another-app', client_secret: 'another-secret-that-is-long-enough', redirect_uris: ['http://127.0.0.1:9/elsewhere'] },
      ],
    }),
  ]);
  ({ id: providerId } = await addIdentityProvider(server.services, { name: 'Acme Login', issuer: idp.issuer, clientId: 'parcel', clientSecret: CLIENT_SECRET }));
  acme = await server.createWorkspace({ email: 'owner@acme.test', plan: 'paid' });
  acmeOwnerCookie = await signIn(server, acme);
  const tied = await dashboard('/workspace/single-sign-on/domains', acmeOwnerCookie, 'POST', { domain: 'acme.test', providerId });
  expect(tied.status, await tied.clone().text()).toBe(201);
});
afterAll(async () => {
  await Promise.all([server?.stop(), idp?.close()]);
});

function dashboard(path: string, cookie: string | undefined, method = 'GET', json?: unknown) {
  return server.fetch(`/api/dashboard${path}`, { method, redirect: 'manual', headers: cookie ? { cookie } : {}, ...(json === undefined ? {} : { json }) });
}

const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`))?.split(';')[0];

/** Presses "Sign in with Acme Login": the provider's authorization URL and the cookie that keeps the sign-in. */
async function leave() {
  const res = await dashboard(`/signin/sso?provider=${providerId}`, undefined);
  expect(res.status).toBe(303);
  const location = res.headers.get('location')!;
  expect(location.startsWith(`${idp.issuer}/`)).toBe(true);
  const cookie = cookieOf(res, 'parcel_sso');
  expect(cookie).toBeDefined();
  return { authorizationUrl: new URL(location), cookie: cookie! };
}

/** Comes back to the server with the provider's answer: where the browser lands, and the session cookie if any. */
async function comeBack(callback: URL, cookie: string | undefined) {
  const res = await dashboard(`/signin/sso/callback${callback.search}`, cookie);
  expect(res.status).toBe(303);
  return { landing: res.headers.get('location'), session: cookieOf(res, 'parcel_session'), res };
}

/** A whole sign-in through the provider as `login`. */
async function signInThroughProvider(login: string) {
  const { authorizationUrl, cookie } = await leave();
  const callback = await idp.signIn(authorizationUrl.toString(), login);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  return { ...(await comeBack(callback, cookie)), callback, cookie };
}

async function sessionOf(cookie: string) {
  const res = await dashboard('/session', cookie);
  expect(res.status).toBe(200);
  return SessionSchema.parse(await res.json());
}

describe('signing in through an identity provider', () => {
  it('makes a new person a member of the workspace tied to their domain, then matches them by subject the next time', async () => {
    const first = await signInThroughProvider('ana@acme.test');
    expect(first.landing).toBe('/');
    expect(first.session).toBeDefined();
    const session = await sessionOf(first.session!);
    expect(session.user.email).toBe('ana@acme.test');
    expect(session.user.name).toBe('ana');
    expect(session.user.singleSignOn).toBe(true);
    expect(session.workspace).toMatchObject({ id: acme.id, role: 'member' });

    const [ana] = await server.services.db.select().from(users).where(eq(users.email, 'ana@acme.test'));
    const joined = await server.services.db.select().from(activity).where(and(eq(activity.workspaceId, acme.id), eq(activity.kind, 'member.joined')));
    expect(joined.map((e) => e.detail)).toContainEqual({ role: 'member', via: 'single_sign_on' });

    const second = await signInThroughProvider('ana@acme.test');
    expect(second.landing).toBe('/');
    expect((await sessionOf(second.session!)).user.id).toBe(ana!.id);
    expect(await server.services.db.select().from(users).where(eq(users.email, 'ana@acme.test'))).toHaveLength(1);
    expect(await server.services.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, ana!.id))).toHaveLength(1);
  });

  it('matches a person who already has an account by their verified address, and adds them to the tied workspace', async () => {
    const bob = await server.createWorkspace({ email: 'bob@acme.test' });
    const { landing, session } = await signInThroughProvider('bob@acme.test');
    expect(landing).toBe('/');
    const s = await sessionOf(session!);
    expect(s.user.id).toBe(bob.userId);
    expect(s.workspace.id).toBe(acme.id);
    const rows = await server.services.db.select().from(memberships).where(eq(memberships.userId, bob.userId));
    expect(rows.map((m) => [m.workspaceId, m.role]).sort()).toEqual([[acme.id, 'member'], [bob.id, 'owner']].sort());
  });

  it('refuses a wrong state, and the sign-in cannot be tried again', async () => {
    const { authorizationUrl, cookie } = await leave();
    const callback = await idp.signIn(authorizationUrl.toString(), 'ana@acme.test');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    const wrong = await comeBack(forged, cookie);
    expect(wrong.landing).toBe('/signin?sso_error=refused');
    expect(wrong.session).toBeUndefined();
    // The sign-in's challenge was spent by that answer: the right state no longer helps.
    const again = await comeBack(callback, cookie);
    expect(again.landing).toBe('/signin?sso_error=expired');
    expect(again.session).toBeUndefined();
  });

  it('refuses an answer without the browser that started the sign-in', async () => {
    const { authorizationUrl } = await leave();
    const callback = await idp.signIn(authorizationUrl.toString(), 'ana@acme.test');
    const { landing, session } = await comeBack(callback, undefined);
    expect(landing).toBe('/signin?sso_error=expired');
    expect(session).toBeUndefined();
  });

  it('refuses a replayed code', async () => {
    const used = await signInThroughProvider('ana@acme.test');
    expect(used.landing).toBe('/');
    // A fresh sign-in of this browser, answered with the code already exchanged.
    const { authorizationUrl, cookie } = await leave();
    const replay = new URL(used.callback);
    replay.searchParams.set('state', authorizationUrl.searchParams.get('state')!);
    const { landing, session } = await comeBack(replay, cookie);
    expect(landing).toBe('/signin?sso_error=refused');
    expect(session).toBeUndefined();
  });

  it('refuses an ID token the provider issued to another application', async () => {
    const { authorizationUrl, cookie } = await leave();
    const nonce = authorizationUrl.searchParams.get('nonce')!;
    idp.replaceNextIdToken(await idp.idTokenForClient('another-app', nonce, 'ana@acme.test'));
    const callback = await idp.signIn(authorizationUrl.toString(), 'ana@acme.test');
    const { landing, session } = await comeBack(callback, cookie);
    expect(landing).toBe('/signin?sso_error=refused');
    expect(session).toBeUndefined();
  });

  it('refuses an address the provider does not vouch for, and a domain no workspace tied', async () => {
    const unverified = await signInThroughProvider('unverified@acme.test');
    expect(unverified.landing).toBe('/signin?sso_error=unverified_email');
    expect(unverified.session).toBeUndefined();
    const elsewhere = await signInThroughProvider('eve@elsewhere.test');
    expect(elsewhere.landing).toBe('/signin?sso_error=no_workspace');
    expect(elsewhere.session).toBeUndefined();
    expect(await server.services.db.select().from(users).where(eq(users.email, 'eve@elsewhere.test'))).toHaveLength(0);
  });

  it('keeps the client secret sealed, and sends an unknown provider back to the sign-in page', async () => {
    const [row] = await server.services.db.select().from(identityProviders).where(eq(identityProviders.id, providerId));
    expect(row!.clientSecretSealed).not.toContain(CLIENT_SECRET);
    const res = await dashboard('/signin/sso?provider=idp_unknown', undefined);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/signin?sso_error=unavailable');
    const listed = await dashboard('/signin/providers', undefined);
    expect(await listed.json()).toEqual({ providers: [{ id: providerId, name: 'Acme Login' }] });
  });
});

describe("a workspace's sign-in domains", () => {
  it('ties only the domain of your own address, each to one workspace, and only as an owner or admin', async () => {
    await expectError(await dashboard('/workspace/single-sign-on/domains', acmeOwnerCookie, 'POST', { domain: 'example.org', providerId }), 403, 'forbidden', { reason: 'not_your_domain' });
    const squatter = await server.createWorkspace({ email: 'mallory@acme.test' });
    await expectError(await dashboard('/workspace/single-sign-on/domains', await signIn(server, squatter), 'POST', { domain: 'acme.test', providerId }), 409, 'conflict', { reason: 'domain_taken' });
    const { session: memberCookie } = await signInThroughProvider('carl@acme.test');
    await expectError(await dashboard('/workspace/single-sign-on/domains', memberCookie, 'POST', { domain: 'acme.test', providerId }), 403, 'forbidden', { reason: 'role_required' });
    await expectError(await dashboard('/workspace/single-sign-on', memberCookie), 403, 'forbidden', { reason: 'role_required' });
    const settings = SingleSignOnSettingsSchema.parse(await (await dashboard('/workspace/single-sign-on', acmeOwnerCookie)).json());
    expect(settings.domains).toEqual([expect.objectContaining({ domain: 'acme.test', providerId, providerName: 'Acme Login' })]);
  });
});

describe('requiring single sign-on', () => {
  it('is refused until the owner signed in through the provider, then sends password sessions and their tokens away', async () => {
    const member = await signInThroughProvider('dora@acme.test');
    await expectError(await dashboard('/workspace/single-sign-on/requirement', acmeOwnerCookie, 'PUT', { required: true }), 409, 'conflict', { reason: 'single_sign_on_off' });

    // A password session's bearer token, minted before the requirement.
    const minted = await dashboard('/token', acmeOwnerCookie, 'POST');
    expect(minted.status).toBe(200);
    const { accessToken } = (await minted.json()) as { accessToken: string };

    const owner = await signInThroughProvider('owner@acme.test');
    expect((await sessionOf(owner.session!)).user.id).toBe(acme.userId);
    const required = await dashboard('/workspace/single-sign-on/requirement', owner.session, 'PUT', { required: true });
    expect(required.status, await required.clone().text()).toBe(200);
    expect(SessionSchema.parse(await required.json()).workspace.requireSingleSignOn).toBe(true);

    // The password session still reads itself (to be sent to sign in), and nothing else.
    const passwordSession = await sessionOf(acmeOwnerCookie);
    expect(passwordSession.user.singleSignOn).toBe(false);
    await expectError(await dashboard('/token', acmeOwnerCookie, 'POST'), 403, 'forbidden', { reason: 'single_sign_on_required' });
    await expectError(await dashboard('/workspace/single-sign-on', acmeOwnerCookie), 403, 'forbidden', { reason: 'single_sign_on_required' });
    await expectError(await server.fetch('/api/v1/transfers', { token: accessToken }), 403, 'forbidden', { reason: 'single_sign_on_required' });
    // Sessions through the provider work on.
    expect((await dashboard('/token', member.session, 'POST')).status).toBe(200);
    expect((await dashboard('/token', owner.session, 'POST')).status).toBe(200);
    // Its last domain stays while it is required.
    await expectError(await dashboard('/workspace/single-sign-on/domains/acme.test', owner.session, 'DELETE'), 409, 'conflict', { reason: 'single_sign_on_required' });

    const logged = await server.services.db.select().from(activity).where(and(eq(activity.workspaceId, acme.id), eq(activity.kind, 'workspace.single_sign_on_requirement_changed')));
    expect(logged.map((e) => e.detail)).toEqual([{ required: true }]);
  });

  it('stops when the operator removes the provider, so nobody is locked out', async () => {
    const other = await startTestIdentityProvider({ clients: [{ client_id: 'parcel', client_secret: CLIENT_SECRET, redirect_uris: [REDIRECT_URI] }] });
    try {
      const { id } = await addIdentityProvider(server.services, { name: 'Beta Login', issuer: other.issuer, clientId: 'parcel', clientSecret: CLIENT_SECRET });
      const beta = await server.createWorkspace({ email: 'owner@beta.test' });
      const betaCookie = await signIn(server, beta);
      expect((await dashboard('/workspace/single-sign-on/domains', betaCookie, 'POST', { domain: 'beta.test', providerId: id })).status).toBe(201);
      await server.services.db.update(workspaces).set({ requireSingleSignOn: true }).where(eq(workspaces.id, beta.id));
      await expectError(await dashboard('/token', betaCookie, 'POST'), 403, 'forbidden', { reason: 'single_sign_on_required' });
      expect(await removeIdentityProvider(server.services.db, id)).toBe(true);
      expect((await dashboard('/token', betaCookie, 'POST')).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('refuses an issuer where no OpenID provider answers', async () => {
    await expect(addIdentityProvider(server.services, { name: 'Nowhere', issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(addIdentityProvider(server.services, { name: 'Plain', issuer: 'ftp://login.example.com', clientId: 'x', clientSecret: 'y' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('single sign-on and two-step verification', () => {
  it('still asks for the code of a person who has it on, and the session then counts as single sign-on', async () => {
    const fay = await server.createWorkspace({ email: 'fay@acme.test' });
    const cookie = await signIn(server, fay);
    const { secret } = TwoStepSetupSchema.parse(await (await dashboard('/security/two-step/setup', cookie, 'POST')).json());
    const codeAt = (at: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
    expect((await dashboard('/security/two-step/enable', cookie, 'POST', { password: fay.password, code: codeAt(server.clock.now().getTime()) })).status).toBe(200);

    const { landing, session, res } = await signInThroughProvider('fay@acme.test');
    expect(landing).toBe('/signin?second_step=1');
    expect(session).toBeUndefined();
    const challenge = cookieOf(res, 'parcel_sign_in');
    expect(challenge).toBeDefined();
    const done = await dashboard('/signin/second-step', challenge, 'POST', { code: codeAt(server.clock.now().getTime() + 30_000), trustBrowser: false });
    expect(done.status, await done.clone().text()).toBe(200);
    const s = await sessionOf(sessionCookieOf(done));
    expect(s.user.singleSignOn).toBe(true);
    expect(s.workspace.id).toBe(acme.id);
  });
});
