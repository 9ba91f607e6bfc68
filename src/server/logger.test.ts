import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '../contract/scopes.js';
import { startTestServer, type TestServer } from './test/harness.js';

/**
 * A failing query is logged by what it is (its SQL text, the SQLSTATE and the database's message),
 * never by the values it carried: those are password hashes, key hashes and signing secrets.
 * The failures here are real: a trigger makes PostgreSQL refuse the write.
 */

let server: TestServer;
const logLines: string[] = [];
let key: string;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({}, { logLines });
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(scopes);
  const signin = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: ws.email, password: ws.password } });
  cookie = signin.headers.getSetCookie()[0]!.split(';')[0]!;
  await server.services.db.execute(sql`
    CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'injected failure on %', TG_TABLE_NAME; END $$`);
});
afterAll(() => server.stop());

/** Makes every `op` on `table` fail until the returned function is called. */
async function failWrites(table: string, op: 'INSERT' | 'UPDATE') {
  await server.services.db.execute(sql.raw(`CREATE TRIGGER refuse_${table} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_write()`));
  return () => server.services.db.execute(sql.raw(`DROP TRIGGER refuse_${table} ON ${table}`));
}

/** The error lines logged while `run` ran. */
async function errorLinesDuring(run: () => Promise<void>): Promise<string[]> {
  const from = logLines.length;
  await run();
  const lines = logLines.slice(from).filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
  expect(lines.length, 'the failure was logged').toBeGreaterThan(0);
  const logged = lines.join('\n');
  expect(logged, 'the log says which query failed and why').toMatch(/injected failure on/);
  expect(logged).toMatch(/"query":"(insert into|update) /);
  expect(logged).not.toMatch(/params/);
  return lines;
}

describe('a failed query', () => {
  it('logs a transfer password change without the new password or its scrypt hash', async () => {
    const draft = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title: 'T', files: [{ name: 'a', size: 1 }] } });
    const { id } = (await draft.json()) as { id: string };
    const restore = await failWrites('transfers', 'UPDATE');
    const lines = await errorLinesDuring(async () => {
      const res = await server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: key, json: { password: 'a very secret passphrase' } });
      expect(res.status).toBe(500);
    });
    await restore();
    expect(lines.join('\n')).not.toMatch(/scrypt\$|a very secret passphrase/);
  });

  it("logs a key creation without the key's SHA-256", async () => {
    const restore = await failWrites('api_keys', 'INSERT');
    const lines = await errorLinesDuring(async () => {
      const res = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'ci', scopes: ['contacts:read'] } });
      expect(res.status).toBe(500);
    });
    await restore();
    expect(lines.join('\n')).not.toMatch(/[0-9a-f]{64}|sk_live_/);
  });

  it('logs a webhook creation and a secret rotation without the signing secret', async () => {
    const created = await server.fetch('/api/v1/webhooks', { method: 'POST', token: key, json: { url: null, events: ['transfer.ready'], description: '' } });
    const { webhook } = (await created.json()) as { webhook: { id: string } };
    const restoreInsert = await failWrites('webhook_endpoints', 'INSERT');
    const createLines = await errorLinesDuring(async () => {
      const res = await server.fetch('/api/v1/webhooks', { method: 'POST', token: key, json: { url: null, events: ['transfer.ready'], description: '' } });
      expect(res.status).toBe(500);
    });
    await restoreInsert();
    const restoreUpdate = await failWrites('webhook_endpoints', 'UPDATE');
    const rotateLines = await errorLinesDuring(async () => {
      const res = await server.fetch(`/api/v1/webhooks/${webhook.id}/rotate-secret`, { method: 'POST', token: key });
      expect(res.status).toBe(500);
    });
    await restoreUpdate();
    expect([...createLines, ...rotateLines].join('\n')).not.toMatch(/whsec_/);
  });

  it('quotes no rejected input from the database message', async () => {
    // The draft first: adding its files updates the transfer too (its file names), which the trigger would refuse.
    const draft = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title: 'T', files: [{ name: 'a', size: 1 }] } });
    expect(draft.status).toBe(201);
    const { id } = (await draft.json()) as { id: string };
    await server.services.db.execute(sql`
      CREATE FUNCTION refuse_with_value() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM NEW.title::uuid; RETURN NEW; END $$`);
    await server.services.db.execute(sql.raw('CREATE TRIGGER cast_title BEFORE UPDATE ON transfers FOR EACH ROW EXECUTE FUNCTION refuse_with_value()'));
    const from = logLines.length;
    const res = await server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: key, json: { title: 'confidential-title-text' } });
    await server.services.db.execute(sql.raw('DROP TRIGGER cast_title ON transfers'));
    expect(res.status).toBeGreaterThanOrEqual(400);
    const logged = logLines.slice(from).join('\n');
    expect(logged).toMatch(/invalid input syntax for type uuid/);
    expect(logged).not.toContain('confidential-title-text');
  });
});

describe('the request log', () => {
  it('puts the request id on every line logged while the request ran, the error and the request line', async () => {
    const restore = await failWrites('contacts', 'INSERT');
    const requestId = 'log-check-7f3a9c2e';
    const from = logLines.length;
    const res = await server.fetch('/api/v1/contacts', { method: 'POST', token: key, headers: { 'x-request-id': requestId }, json: { email: 'someone@example.test', name: 'Someone' } });
    await restore();
    expect(res.status).toBe(500);
    const lines = logLines.slice(from).map((l) => JSON.parse(l) as { msg: string; level: number; requestId?: string; path?: string });
    const ours = lines.filter((l) => l.level >= 50 || (l.msg === 'request' && l.path === '/api/v1/contacts'));
    expect(ours.map((l) => l.msg)).toEqual(['unhandled error', 'request']);
    expect(ours.map((l) => l.requestId)).toEqual([requestId, requestId]);
  });

  it('records the status a handler that writes the Node response itself sent (the OAuth provider registering a client: 201)', async () => {
    const from = logLines.length;
    const metadata = { client_name: 'Log check', redirect_uris: ['http://127.0.0.1:9999/cb'], token_endpoint_auth_method: 'none' };
    const res = await server.fetch('/oauth/register', { method: 'POST', json: metadata });
    expect(res.status).toBe(201);
    const line = logLines.slice(from).map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number }).find((l) => l.msg === 'request' && l.path === '/oauth/register');
    expect(line?.status).toBe(201);
  });
});
