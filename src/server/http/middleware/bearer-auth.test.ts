import { operatorActor } from '../../activity/activity.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactListSchema, ContactResponseSchema } from '../../../contract/contacts.js';
import { AccessTokenSchema, CreateApiKeyResponseSchema } from '../../../contract/dashboard.js';
import { ErrorSchema } from '../../../contract/errors.js';
import { MeSchema } from '../../../contract/me.js';
import { revokeApiKey } from '../../auth/api-keys.js';
import { keyHint, newApiKey, newId, sha256 } from '../../core/secrets.js';
import { apiKeys } from '../../db/schema/index.js';
import { signIn, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function createKeyInDashboard(cookie: string, scopes: string[]) {
  const res = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'integration', scopes } });
  expect(res.status).toBe(201);
  return CreateApiKeyResponseSchema.parse(await res.json());
}

const me = (authorization?: string, headers: Record<string, string> = {}) =>
  server.fetch('/api/v1/me', { headers: authorization === undefined ? headers : { ...headers, authorization } });

describe('bearer authentication on /api/v1', () => {
  /** Each case prepares an Authorization header value (undefined: none at all). */
  const badCredentials: [string, () => Promise<string | undefined>][] = [
    ['a missing Authorization header', async () => undefined],
    ['"Bearer" with nothing after it', async () => 'Bearer'],
    ['"Bearer" followed by garbage', async () => 'Bearer %%% not a key %%%'],
    ['Basic credentials', async () => `Basic ${Buffer.from('owner@example.test:secret').toString('base64')}`],
    ['a live key of the wrong length', async () => `Bearer ${newApiKey().slice(0, -1)}`],
    ['a well-formed key that was never issued', async () => `Bearer ${newApiKey()}`],
    [
      'a key revoked in the dashboard',
      async () => {
        const ws = await server.createWorkspace();
        const cookie = await signIn(server, ws);
        const { key, secret } = await createKeyInDashboard(cookie, ['contacts:read']);
        expect((await me(`Bearer ${secret}`)).status).toBe(200);
        const revoked = await server.fetch(`/api/dashboard/keys/${key.id}`, { method: 'DELETE', headers: { cookie } });
        expect(revoked.status).toBe(204);
        return `Bearer ${secret}`;
      },
    ],
    [
      'an expired dashboard token',
      async () => {
        const ws = await server.createWorkspace();
        const cookie = await signIn(server, ws);
        const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } });
        expect(res.status).toBe(200);
        const { accessToken } = AccessTokenSchema.parse(await res.json());
        expect((await me(`Bearer ${accessToken}`)).status).toBe(200);
        server.clock.advance((server.services.config.ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
        return `Bearer ${accessToken}`;
      },
    ],
  ];

  let referenceBody: string;
  beforeAll(async () => {
    const res = await me();
    expect(res.status).toBe(401);
    referenceBody = await res.text();
  });

  it.each(badCredentials)('answers %s with 401, a Bearer challenge and the same body as every other bad credential', async (_, prepare) => {
    const authorization = await prepare();
    const requestId = `auth-test-${Math.random().toString(36).slice(2)}`;
    const res = await me(authorization, { 'x-request-id': requestId });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const body = await res.text();
    expect(body).not.toContain(requestId);
    expect(ErrorSchema.parse(JSON.parse(body)).error.code).toBe('unauthorized');
    expect(body).toBe(referenceBody);
  });

  it('does not accept the dashboard session cookie as a credential', async () => {
    const ws = await server.createWorkspace();
    const cookie = await signIn(server, ws);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(200);
    const res = await me(undefined, { cookie });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe(referenceBody);
  });

  it('refuses a revoked key from the very next request', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['transfers:read']);
    const before = await me(`Bearer ${key}`);
    expect(before.status).toBe(200);
    const { key: used } = MeSchema.parse(await before.json());
    expect(await revokeApiKey(server.services.db, server.clock.now(), ws.id, used.id, operatorActor(null))).toBe(true);
    const after = await me(`Bearer ${key}`);
    expect(after.status).toBe(401);
    expect(await after.text()).toBe(referenceBody);
  });

  it('reports the workspace the key belongs to, whoever else exists', async () => {
    const a = await server.createWorkspace();
    const b = await server.createWorkspace({ plan: 'paid' });
    const [keyA, keyB] = [await a.createKey(['contacts:read']), await b.createKey(['contacts:read'])];
    const meA = MeSchema.parse(await (await me(`Bearer ${keyA}`)).json());
    const meB = MeSchema.parse(await (await me(`Bearer ${keyB}`)).json());
    expect(meA.workspace.id).toBe(a.id);
    expect(meA.plan.name).toBe('free');
    expect(meB.workspace.id).toBe(b.id);
    expect(meB.plan.name).toBe('paid');
  });

  it("never reaches another workspace's resources: their ids answer 404", async () => {
    const owner = await server.createWorkspace();
    const intruder = await server.createWorkspace();
    const ownerKey = await owner.createKey(['contacts:write']);
    const intruderKey = await intruder.createKey(['contacts:write']);
    const created = await server.fetch('/api/v1/contacts', { method: 'POST', token: ownerKey, json: { email: 'private@example.test' } });
    expect(created.status).toBe(201);
    const { contact } = ContactResponseSchema.parse(await created.json());

    const read = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: intruderKey });
    expect(read.status).toBe(404);
    expect(ErrorSchema.parse(await read.json()).error.code).toBe('not_found');
    const replace = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'PUT', token: intruderKey, json: { email: 'stolen@example.test' } });
    expect(replace.status).toBe(404);
    const remove = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token: intruderKey });
    expect(remove.status).toBe(404);
    const intruderList = ContactListSchema.parse(await (await server.fetch('/api/v1/contacts', { token: intruderKey })).json());
    expect(intruderList.contacts.map((c) => c.id)).not.toContain(contact.id);

    const stillThere = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: ownerKey });
    expect(stillThere.status).toBe(200);
    expect(ContactResponseSchema.parse(await stillThere.json()).contact.email).toBe('private@example.test');
  });

  it('refuses a key with no scopes with 403 insufficient_scope, even where any scope will do', async () => {
    const ws = await server.createWorkspace();
    const secret = newApiKey();
    await server.services.db.insert(apiKeys).values({
      id: newId('key'),
      workspaceId: ws.id,
      name: 'no scopes',
      scopes: [],
      secretHash: sha256(secret),
      hint: keyHint(secret),
      createdAt: server.clock.now(),
    });
    const res = await me(`Bearer ${secret}`);
    expect(res.status).toBe(403);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toMatchObject({ required: 'any', granted: [] });
  });
});
