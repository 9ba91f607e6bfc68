import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema } from '../../contract/dashboard.js';
import { RecoveryCodesSchema, SessionListSchema, TwoStepSetupSchema, TwoStepStatusSchema } from '../../contract/security.js';
import { sha256 } from '../core/secrets.js';
import { activity, memberships, passwordResets, users } from '../db/schema/index.js';
import type { OutgoingMessage } from '../mail/message.js';
import { expectError, recordMail, sessionCookieOf, signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

let server: TestServer;
let sent: OutgoingMessage[];
beforeAll(async () => {
  server = await startTestServer();
  sent = recordMail(server);
});
afterAll(() => server.stop());

const codeAt = (secret: string, at: Date) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
/** A code of the next 30-second step: one the server has not seen yet, still inside its one-step window. */
const nextCode = (secret: string) => codeAt(secret, new Date(server.clock.now().getTime() + 30_000));

const cookieValue = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(';')[0];

function post(path: string, cookie: string | undefined, json?: unknown, method: 'POST' | 'PUT' = 'POST') {
  return server.fetch(`/api/dashboard${path}`, { method, headers: cookie ? { cookie } : {}, ...(json === undefined ? {} : { json }) });
}

/** A person with two-step verification on: their session cookie, the app's secret and their recovery codes. */
async function enrolled(ws?: TestWorkspace) {
  const person = ws ?? (await server.createWorkspace());
  const cookie = await signIn(server, person);
  const setup = TwoStepSetupSchema.parse(await (await post('/security/two-step/setup', cookie)).json());
  const enabled = await post('/security/two-step/enable', cookie, { password: person.password, code: codeAt(setup.secret, server.clock.now()) });
  expect(enabled.status).toBe(200);
  const { recoveryCodes } = RecoveryCodesSchema.parse(await enabled.json());
  // Past the step the enrolment code spent.
  server.clock.advance(30_000);
  return { person, cookie, secret: setup.secret, recoveryCodes };
}

/** Signs in with the password, which asks for the second step: the challenge cookie. */
async function passwordStep(person: { email: string; password: string }, extraCookie?: string) {
  const res = await post('/signin', extraCookie, { email: person.email, password: person.password });
  await expectError(res, 401, 'unauthorized', { reason: 'second_step_required', methods: ['totp', 'recovery_code'] });
  expect(cookieValue(res, 'parcel_session'), 'no session before the second step').toBeUndefined();
  const challenge = cookieValue(res, 'parcel_sign_in');
  expect(challenge).toBeDefined();
  return challenge!;
}

describe('turning two-step verification on', () => {
  it('keeps the secret sealed until a first code and the password confirm it, then gives ten recovery codes and ends other sessions', async () => {
    const person = await server.createWorkspace();
    const cookie = await signIn(server, person);
    const otherBrowser = await signIn(server, person);

    const setupRes = await post('/security/two-step/setup', cookie);
    expect(setupRes.status).toBe(200);
    const setup = TwoStepSetupSchema.parse(await setupRes.json());
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Parcel:/);
    expect(setup.uri).toContain(`secret=${setup.secret}`);

    const [pending] = await server.services.db.select().from(users).where(eq(users.id, person.userId));
    expect(pending!.totpPendingSecret).not.toBeNull();
    expect(pending!.totpPendingSecret).not.toContain(setup.secret);
    expect(pending!.totpEnabledAt).toBeNull();

    const now = server.clock.now();
    await expectError(await post('/security/two-step/enable', cookie, { password: person.password, code: codeAt(setup.secret, new Date(now.getTime() - 5 * 60_000)) }), 400, 'invalid_request', {
      fields: [{ path: 'code' }],
    });
    await expectError(await post('/security/two-step/enable', cookie, { password: 'not the password', code: codeAt(setup.secret, now) }), 400, 'invalid_request', {
      fields: [{ path: 'password' }],
    });

    const enabled = await post('/security/two-step/enable', cookie, { password: person.password, code: codeAt(setup.secret, now) });
    expect(enabled.status).toBe(200);
    const { recoveryCodes } = RecoveryCodesSchema.parse(await enabled.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const [row] = await server.services.db.select().from(users).where(eq(users.id, person.userId));
    expect(row!.totpSecret).not.toBeNull();
    expect(row!.totpSecret).not.toContain(setup.secret);
    expect(row!.totpPendingSecret).toBeNull();

    const status = TwoStepStatusSchema.parse(await (await server.fetch('/api/dashboard/security/two-step', { headers: { cookie } })).json());
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(200);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: otherBrowser } })).status).toBe(401);

    await expectError(await post('/security/two-step/setup', cookie), 409, 'conflict', { reason: 'two_step_on' });
  });
});

describe('signing in with two-step verification on', () => {
  it('asks for a code after the password, and a code signs in once', async () => {
    const { person, secret } = await enrolled();
    const challenge = await passwordStep(person);
    const code = nextCode(secret);

    const done = await post('/signin/second-step', challenge, { code });
    expect(done.status).toBe(200);
    expect(SessionSchema.parse(await done.json()).user.email).toBe(person.email);
    const session = sessionCookieOf(done);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: session } })).status).toBe(200);

    // The challenge is spent, and the same code does not open another sign-in.
    await expectError(await post('/signin/second-step', challenge, { code }), 401, 'unauthorized', { reason: 'sign_in_expired' });
    const again = await passwordStep(person);
    await expectError(await post('/signin/second-step', again, { code }), 400, 'invalid_request', { fields: [{ path: 'code' }] });
    server.clock.advance(30_000);
    expect((await post('/signin/second-step', again, { code: nextCode(secret) })).status).toBe(200);
  });

  it('takes a recovery code once, and not twice', async () => {
    const { person, recoveryCodes } = await enrolled();
    const code = recoveryCodes[3]!;
    // Typed back in capitals and without the dash, it is the same code.
    const first = await post('/signin/second-step', await passwordStep(person), { code: code.toUpperCase().replace('-', '') });
    expect(first.status).toBe(200);
    const cookie = sessionCookieOf(first);
    expect(TwoStepStatusSchema.parse(await (await server.fetch('/api/dashboard/security/two-step', { headers: { cookie } })).json()).recoveryCodesLeft).toBe(9);

    await expectError(await post('/signin/second-step', await passwordStep(person), { code }), 400, 'invalid_request', { fields: [{ path: 'code' }] });
  });

  it('refuses a second step without a challenge, or after its ten minutes', async () => {
    const { person, secret } = await enrolled();
    await expectError(await post('/signin/second-step', undefined, { code: nextCode(secret) }), 401, 'unauthorized', { reason: 'sign_in_expired' });
    await expectError(await post('/signin/second-step', 'parcel_sign_in=made-up', { code: nextCode(secret) }), 401, 'unauthorized', { reason: 'sign_in_expired' });
    const challenge = await passwordStep(person);
    server.clock.advance(10 * 60_000 + 1000);
    await expectError(await post('/signin/second-step', challenge, { code: nextCode(secret) }), 401, 'unauthorized', { reason: 'sign_in_expired' });
  });

  it('trusts a browser for 30 days when asked, and only that browser', async () => {
    const { person, secret } = await enrolled();
    const done = await post('/signin/second-step', await passwordStep(person), { code: nextCode(secret), trustBrowser: true });
    expect(done.status).toBe(200);
    const trusted = cookieValue(done, 'parcel_trusted_browser')!;
    expect(trusted).toBeDefined();

    const direct = await post('/signin', trusted, { email: person.email, password: person.password });
    expect(direct.status).toBe(200);
    await passwordStep(person);
    // Another person's trust does not carry over.
    const other = await enrolled();
    await passwordStep(other.person, trusted);

    server.clock.advance(31 * 24 * 3600_000);
    await passwordStep(person, trusted);
  });

  it('still asks for the code after a password reset', async () => {
    const { person, secret } = await enrolled();
    const token = 'a-reset-token-for-two-step-test';
    const now = server.clock.now();
    await server.services.db.insert(passwordResets).values({ tokenHash: sha256(token), userId: person.userId, createdAt: now, expiresAt: new Date(now.getTime() + 60_000) });
    const reset = await post('/password-reset/complete', undefined, { token, newPassword: 'a brand new password' });
    await expectError(reset, 401, 'unauthorized', { reason: 'second_step_required' });
    expect(cookieValue(reset, 'parcel_session')).toBeUndefined();
    expect((await post('/signin/second-step', cookieValue(reset, 'parcel_sign_in'), { code: nextCode(secret) })).status).toBe(200);
  });

  it('limits wrong codes per person, whatever the challenge', async () => {
    // A window of its own: earlier tests' wrong codes came from the same loopback address.
    server.clock.advance(15 * 60_000);
    const { person, secret } = await enrolled();
    const challenge = await passwordStep(person);
    const limit = server.services.config.SIGNIN_ATTEMPTS_PER_15_MINUTES;
    for (let i = 0; i < limit; i++) await expectError(await post('/signin/second-step', challenge, { code: '000000' }), 400);
    const limited = await post('/signin/second-step', challenge, { code: nextCode(secret) });
    await expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The window passes; the loopback address every test here shares is free again.
    server.clock.advance(15 * 60_000);
  });
});

describe('turning two-step verification off and new recovery codes', () => {
  it('needs a current code or the password, and ends the other sessions', async () => {
    const { person, cookie, secret } = await enrolled();
    const other = await post('/signin/second-step', await passwordStep(person), { code: nextCode(secret) });
    const otherCookie = sessionCookieOf(other);

    await expectError(await post('/security/two-step/disable', cookie, {}), 400, 'invalid_request');
    await expectError(await post('/security/two-step/disable', cookie, { password: 'wrong' }), 400, 'invalid_request', { fields: [{ path: 'password' }] });
    server.clock.advance(30_000);
    const regenerated = await post('/security/two-step/recovery-codes', cookie, { code: nextCode(secret) });
    expect(RecoveryCodesSchema.parse(await regenerated.json()).recoveryCodes).toHaveLength(10);

    expect((await post('/security/two-step/disable', cookie, { password: person.password })).status).toBe(204);
    // The person hears of it, in case it was not them.
    const mail = sent.filter((m) => m.to === person.email && m.tag === 'account.security').map((m) => m.subject);
    expect(mail).toEqual(['Your Parcel account: two-step verification is on', 'Your Parcel account: two-step verification is off']);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: otherCookie } })).status).toBe(401);
    expect((await post('/signin', undefined, { email: person.email, password: person.password })).status).toBe(200);
    const [row] = await server.services.db.select().from(users).where(eq(users.id, person.userId));
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null });
  });
});

describe('sessions', () => {
  it('lists the person’s sessions with their browser, and ends one or all the others', async () => {
    const person = await server.createWorkspace();
    const here = await signIn(server, person);
    const phone = sessionCookieOf(await server.fetch('/api/dashboard/signin', { method: 'POST', headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Mobile Safari' }, json: { email: person.email, password: person.password } }));
    const third = await signIn(server, person);

    const list = SessionListSchema.parse(await (await server.fetch('/api/dashboard/security/sessions', { headers: { cookie: here } })).json());
    expect(list.sessions).toHaveLength(3);
    expect(list.sessions.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = list.sessions.find((s) => s.userAgent?.includes('iPhone'));
    expect(phoneSession).toMatchObject({ current: false, address: expect.any(String) });

    // Nobody else's session can be named.
    const stranger = await signIn(server, await server.createWorkspace());
    await expectError(await server.fetch(`/api/dashboard/security/sessions/${phoneSession!.id}`, { method: 'DELETE', headers: { cookie: stranger } }), 404, 'not_found');
    expect((await server.fetch(`/api/dashboard/security/sessions/${phoneSession!.id}`, { method: 'DELETE', headers: { cookie: here } })).status).toBe(204);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: phone } })).status).toBe(401);

    const ended = await post('/security/sessions/end-others', here);
    expect(await ended.json()).toEqual({ ended: 1 });
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: third } })).status).toBe(401);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: here } })).status).toBe(200);
  });
});

describe('a workspace that requires two-step verification', () => {
  it('is refused until the one asking has it on, then holds a member without it to setting it up', async () => {
    const owner = await server.createWorkspace();
    await expectError(await post('/workspace/two-step-requirement', await signIn(server, owner), { required: true }, 'PUT'), 409, 'conflict', { reason: 'two_step_off' });

    const person = await server.createWorkspace();
    await server.services.db.insert(memberships).values({ workspaceId: owner.id, userId: person.userId, role: 'member', createdAt: server.clock.now() });
    const memberCookie = await signIn(server, person);
    const switched = SessionSchema.parse(await (await post('/workspaces/current', memberCookie, { workspaceId: owner.id })).json());
    expect(switched.workspace).toMatchObject({ id: owner.id, role: 'member', requireTwoStep: false });
    const minted = (await (await post('/token', memberCookie)).json()) as { accessToken: string };

    const { cookie: ownerCookie } = await enrolled(owner);
    const required = await post('/workspace/two-step-requirement', ownerCookie, { required: true }, 'PUT');
    expect(required.status).toBe(200);
    expect(SessionSchema.parse(await required.json()).workspace.requireTwoStep).toBe(true);
    const logged = await server.services.db.select().from(activity).where(and(eq(activity.workspaceId, owner.id), eq(activity.kind, 'workspace.two_step_requirement_changed')));
    expect(logged).toMatchObject([{ detail: { required: true }, actorId: owner.userId }]);

    // The member: their session says so, and nothing but Security, the session and the switcher answers.
    const session = SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie: memberCookie } })).json());
    expect(session).toMatchObject({ user: { twoStep: false }, workspace: { requireTwoStep: true } });
    await expectError(await server.fetch('/api/dashboard/members', { headers: { cookie: memberCookie } }), 403, 'forbidden', { reason: 'two_step_required' });
    await expectError(await post('/token', memberCookie), 403, 'forbidden', { reason: 'two_step_required' });
    // The dashboard token minted before the requirement stops too.
    await expectError(await server.fetch('/api/v1/me', { token: minted.accessToken }), 403, 'forbidden', { reason: 'two_step_required' });
    expect((await server.fetch('/api/dashboard/workspaces', { headers: { cookie: memberCookie } })).status).toBe(200);

    const setup = TwoStepSetupSchema.parse(await (await post('/security/two-step/setup', memberCookie)).json());
    const enabled = await post('/security/two-step/enable', memberCookie, { password: person.password, code: codeAt(setup.secret, server.clock.now()) });
    expect(enabled.status).toBe(200);
    expect((await server.fetch('/api/dashboard/members', { headers: { cookie: memberCookie } })).status).toBe(200);
    expect((await server.fetch('/api/v1/me', { token: minted.accessToken })).status).toBe(200);

    // Stopping the requirement is the owner's or an admin's; the member is refused.
    await expectError(await post('/workspace/two-step-requirement', memberCookie, { required: false }, 'PUT'), 403, 'forbidden');
    expect((await post('/workspace/two-step-requirement', ownerCookie, { required: false }, 'PUT')).status).toBe(200);
  });
});
