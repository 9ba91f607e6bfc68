import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasskeyListSchema, WebAuthnOptionsSchema } from '../../contract/security.js';
import { passkeys } from '../db/schema/index.js';
import type { OutgoingMessage } from '../mail/message.js';
import { expectError, recordMail, signIn, startTestServer, type TestServer } from '../test/harness.js';

/**
 * The passkey endpoints' rules; a real passkey is made and used in Chromium with its virtual
 * authenticator (e2e/passkeys.spec.ts).
 */

let server: TestServer;
let sent: OutgoingMessage[];
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://files.example.test' });
  sent = recordMail(server);
});
afterAll(() => server.stop());

const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(';')[0];
const post = (path: string, cookie: string | undefined, json?: unknown) =>
  server.fetch(`/api/dashboard${path}`, { method: 'POST', headers: { origin: 'https://files.example.test', ...(cookie ? { cookie } : {}) }, ...(json === undefined ? {} : { json }) });

/** A credential's JSON as a browser sends it, signed by nobody. */
const forged = (id = 'bm90LWEtcmVhbC1jcmVkZW50aWFs') => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA', authenticatorData: 'AA', signature: 'AA', userHandle: null },
  clientExtensionResults: {},
});

describe('adding a passkey', () => {
  it('asks for a discoverable credential with user verification, for PUBLIC_URL’s host, excluding the person’s own', async () => {
    const person = await server.createWorkspace();
    await server.services.db.insert(passkeys).values({ id: 'pk_existing1', userId: person.userId, credentialId: 'ZXhpc3Rpbmc', publicKey: 'AAAA', name: 'Old key', createdAt: server.clock.now() });
    const cookie = await signIn(server, person);
    const res = await post('/security/passkeys/options', cookie);
    expect(res.status).toBe(200);
    const { options } = WebAuthnOptionsSchema.parse(await res.json());
    expect(options).toMatchObject({
      rp: { id: 'files.example.test', name: 'Parcel' },
      user: { name: person.email },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [{ id: 'ZXhpc3Rpbmc' }],
    });
    const challengeCookie = cookieOf(res, 'parcel_webauthn')!;
    expect(res.headers.getSetCookie().find((c) => c.startsWith('parcel_webauthn='))).toMatch(/HttpOnly/i);

    // A credential that does not check out is refused, and spends the challenge.
    await expectError(await post('/security/passkeys', `${cookie}; ${challengeCookie}`, { name: 'Laptop', credential: forged() }), 400, 'invalid_request', { reason: 'passkey_not_verified' });
    await expectError(await post('/security/passkeys', `${cookie}; ${challengeCookie}`, { name: 'Laptop', credential: forged() }), 400, 'invalid_request', { reason: 'challenge_expired' });
    await expectError(await post('/security/passkeys', cookie, { name: 'Laptop', credential: forged() }), 400, 'invalid_request', { reason: 'challenge_expired' });

    // Another person's challenge is not this person's.
    const other = await signIn(server, await server.createWorkspace());
    const theirs = cookieOf(await post('/security/passkeys/options', other), 'parcel_webauthn')!;
    await expectError(await post('/security/passkeys', `${cookie}; ${theirs}`, { name: 'Laptop', credential: forged() }), 400, 'invalid_request', { reason: 'challenge_expired' });
  });
});

describe('signing in with a passkey', () => {
  it('refuses an answer without its challenge, after five minutes, or from a passkey the server does not know', async () => {
    await expectError(await post('/signin/passkey', undefined, { credential: forged() }), 400, 'invalid_request', { reason: 'challenge_expired' });

    const options = await post('/signin/passkey/options', undefined);
    const { options: body } = WebAuthnOptionsSchema.parse(await options.clone().json());
    expect(body).toMatchObject({ rpId: 'files.example.test', userVerification: 'required', allowCredentials: [] });
    const challenge = cookieOf(options, 'parcel_webauthn')!;
    const unknown = await post('/signin/passkey', challenge, { credential: forged() });
    await expectError(unknown, 401, 'unauthorized');
    expect(cookieOf(unknown, 'parcel_session')).toBeUndefined();

    const late = cookieOf(await post('/signin/passkey/options', undefined), 'parcel_webauthn')!;
    server.clock.advance(5 * 60_000 + 1000);
    await expectError(await post('/signin/passkey', late, { credential: forged() }), 400, 'invalid_request', { reason: 'challenge_expired' });
  });

  it('refuses a known passkey whose signature does not check out', async () => {
    const person = await server.createWorkspace();
    await server.services.db.insert(passkeys).values({ id: 'pk_signedbynobody', userId: person.userId, credentialId: 'a25vd24tY3JlZA', publicKey: 'AAAA', name: 'Phone', createdAt: server.clock.now() });
    const challenge = cookieOf(await post('/signin/passkey/options', undefined), 'parcel_webauthn')!;
    await expectError(await post('/signin/passkey', challenge, { credential: forged('a25vd24tY3JlZA') }), 401, 'unauthorized');
  });
});

describe('the person’s passkeys', () => {
  it('lists only their own, and removing one ends their other sessions; another’s is not found', async () => {
    const person = await server.createWorkspace();
    await server.services.db.insert(passkeys).values({ id: 'pk_mine1', userId: person.userId, credentialId: 'bWluZQ', publicKey: 'AAAA', name: 'Laptop', createdAt: server.clock.now() });
    const here = await signIn(server, person);
    const elsewhere = await signIn(server, person);
    const stranger = await signIn(server, await server.createWorkspace());

    const list = PasskeyListSchema.parse(await (await server.fetch('/api/dashboard/security/passkeys', { headers: { cookie: here } })).json());
    expect(list.passkeys).toEqual([expect.objectContaining({ id: 'pk_mine1', name: 'Laptop', lastUsedAt: null })]);
    expect(PasskeyListSchema.parse(await (await server.fetch('/api/dashboard/security/passkeys', { headers: { cookie: stranger } })).json()).passkeys).toEqual([]);

    const headers = (cookie: string) => ({ cookie, origin: 'https://files.example.test' });
    await expectError(await server.fetch('/api/dashboard/security/passkeys/pk_mine1', { method: 'DELETE', headers: headers(stranger) }), 404, 'not_found');
    expect((await server.fetch('/api/dashboard/security/passkeys/pk_mine1', { method: 'DELETE', headers: headers(here) })).status).toBe(204);
    expect(sent.filter((m) => m.to === person.email).map((m) => [m.tag, m.subject])).toEqual([['account.security', 'Your Parcel account: a passkey was removed']]);
    expect(sent.find((m) => m.to === person.email)!.text).toContain('“Laptop”');
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: elsewhere } })).status).toBe(401);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: here } })).status).toBe(200);
  });
});

describe('asking to sign in with a passkey', () => {
  it('counts against the anonymous per-address limit, as each asking keeps a challenge', async () => {
    const limited = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3' });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.fetch('/api/dashboard/signin/passkey/options', { method: 'POST' })).status).toBe(200);
      const refused = await limited.fetch('/api/dashboard/signin/passkey/options', { method: 'POST' });
      await expectError(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.stop();
    }
  });
});
