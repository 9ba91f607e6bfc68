import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactListSchema, SyncContactsResponseSchema, type Contact } from '../../../../contract/contacts.js';
import { dashboardToken, expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact, fieldPaths } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const sync = (token: string, json: unknown, headers?: Record<string, string>) =>
  server.fetch('/api/v1/contacts/sync', { method: 'POST', token, json, headers });

async function synced(token: string, contacts: unknown[]) {
  const res = await sync(token, { contacts });
  expect(res.status, await res.clone().text()).toBe(200);
  return SyncContactsResponseSchema.parse(await res.json());
}

async function list(token: string): Promise<Contact[]> {
  const res = await server.fetch('/api/v1/contacts', { token });
  expect(res.status).toBe(200);
  return ContactListSchema.parse(await res.json()).contacts;
}

const byEmail = (contacts: Contact[]) => [...contacts].sort((a, b) => a.email.localeCompare(b.email));

async function writer() {
  const ws = await server.createWorkspace();
  return { ws, token: await ws.createKey(['contacts:write']) };
}

describe('POST /api/v1/contacts/sync', () => {
  it('creates new addresses with their defaults, answering the contacts in request order', async () => {
    const { token } = await writer();
    const result = await synced(token, [
      { email: 'zed@example.com', firstName: 'Zed' },
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', phone: '+44 1', type: 'person' },
      { email: 'acme@example.com', company: 'Acme', type: 'company' },
    ]);
    expect(result).toMatchObject({ created: 3, updated: 0, unchanged: 0 });
    expect(result.contacts.map((c) => c.email)).toEqual(['zed@example.com', 'ada@example.com', 'acme@example.com']);
    expect(result.contacts[0]).toMatchObject({ firstName: 'Zed', lastName: '', company: '', phone: '', type: 'person' });
    expect(result.contacts[2]).toMatchObject({ company: 'Acme', type: 'company' });
    expect(result.contacts[0]!.id).toMatch(/^ct_/);
    expect(byEmail(await list(token))).toEqual(byEmail(result.contacts));
  });

  it('replaces known contacts entirely, matching the email case-insensitively and storing it lower-cased', async () => {
    const { token } = await writer();
    const known = await createContact(server, token, { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', company: 'Navy', phone: '555' });
    server.clock.advance(60_000);
    const result = await synced(token, [{ email: '  Grace@EXAMPLE.com ', firstName: 'Amazing', lastName: 'Grace' }, { email: 'new@example.com' }]);
    expect(result).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
    const [updated] = result.contacts;
    // Left-out fields are reset to their defaults, as PUT does; id and createdAt stay, updatedAt moves.
    expect(updated).toEqual({
      ...known,
      email: 'grace@example.com',
      firstName: 'Amazing',
      lastName: 'Grace',
      company: '',
      phone: '',
      type: 'person',
      updatedAt: server.clock.now().toISOString(),
    });
    const stored = await server.fetch(`/api/v1/contacts/${known.id}`, { token });
    expect((await stored.json()).contact).toEqual(updated);
    expect(await list(token)).toHaveLength(2);
  });

  it('makes the contacts it creates the caller’s, and leaves those it replaces or matches to whoever made them', async () => {
    const { ws, token } = await writer();
    const member = await dashboardToken(server, ws);
    const known = await createContact(server, member, { email: 'known@example.com' });
    const result = await synced(token, [{ email: 'known@example.com', firstName: 'Changed' }, { email: 'new@example.com' }]);
    expect(result.contacts.map((c) => c.createdBy)).toEqual([
      { kind: 'member', id: ws.userId, name: null, email: ws.email },
      { kind: 'key', id: expect.stringMatching(/^key_/), name: 'test key', email: null },
    ]);
    expect(result.contacts[0]!.createdBy).toEqual(known.createdBy);
    expect(byEmail(await list(member))).toEqual(byEmail(result.contacts));
  });

  it('counts contacts whose fields already match as unchanged, without touching updatedAt', async () => {
    const { token } = await writer();
    const first = await synced(token, [
      { email: 'same@example.com', firstName: 'Same', type: 'person' },
      { email: 'other@example.com', lastName: 'Other' },
    ]);
    server.clock.advance(60_000);
    const again = await synced(token, [
      { email: 'SAME@example.com', firstName: ' Same ' },
      { email: 'other@example.com', lastName: 'Changed' },
    ]);
    expect(again).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(again.contacts[0]).toEqual(first.contacts[0]);
    expect(again.contacts[1]).toEqual({ ...first.contacts[1], lastName: 'Changed', updatedAt: server.clock.now().toISOString() });
    expect(byEmail(await list(token))).toEqual(byEmail(again.contacts));
  });

  it('refuses a batch with one bad entry whole, naming its index and field, and writes nothing', async () => {
    const { token } = await writer();
    const known = await createContact(server, token, { email: 'kept@example.com', firstName: 'Kept' });
    const before = await list(token);
    const error = await expectError(
      await sync(token, {
        contacts: [
          { email: 'kept@example.com', firstName: 'Changed' },
          { email: 'fine@example.com' },
          { email: 'bad@example.com', phone: 'CALL-ME' },
          { email: 'not-an-address' },
        ],
      }),
      400,
    );
    expect(error.details.fields).toEqual([
      { path: 'contacts.2.phone', message: 'phone may only contain digits, spaces and + - ( ) .' },
      { path: 'contacts.3.email', message: 'email must be a valid email address' },
    ]);
    expect(await list(token)).toEqual(before);
    expect(before).toEqual([known]);
  });

  it('refuses an email repeated in one call, naming the repeat and the entry it repeats', async () => {
    const { token } = await writer();
    const error = await expectError(
      await sync(token, { contacts: [{ email: 'a@example.com' }, { email: 'b@example.com' }, { email: 'c@example.com' }, { email: ' A@Example.COM' }] }),
      400,
    );
    expect(error.details.fields).toEqual([{ path: 'contacts.3.email', message: 'email repeats entry 0 of this call' }]);
    expect(await list(token)).toEqual([]);
  });

  it.each([
    ['no contacts', { contacts: [] }, 'contacts'],
    ['no contacts field', {}, 'contacts'],
    ['an entry that is not an object', { contacts: ['a@example.com'] }, 'contacts.0'],
    ['an entry without email', { contacts: [{ email: 'a@example.com' }, { firstName: 'No' }] }, 'contacts.1.email'],
  ])('answers 400 for %s', async (_, body, path) => {
    const { token } = await writer();
    expect(fieldPaths(await expectError(await sync(token, body), 400))).toEqual([path]);
  });

  it('takes 1,000 contacts in one call, and the same 1,000 again as unchanged', async () => {
    const { token } = await writer();
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      email: `person${i}@example.com`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      company: `Company ${i % 37}`,
      phone: `+1 555 ${String(i).padStart(4, '0')}`,
      type: i % 10 === 0 ? 'company' : 'person',
    }));
    const created = await synced(token, entries);
    expect(created).toMatchObject({ created: 1000, updated: 0, unchanged: 0 });
    expect(created.contacts.map((c) => c.email)).toEqual(entries.map((e) => e.email));
    expect(await list(token)).toHaveLength(1000);

    server.clock.advance(60_000);
    const again = await synced(token, entries);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1000 });
    expect(again.contacts).toEqual(created.contacts);

    // Half changed, half new, in one call.
    const mixed = [...entries.slice(0, 500).map((e) => ({ ...e, company: 'Renamed' })), ...entries.slice(0, 500).map((e) => ({ email: `more.${e.email}` }))];
    const third = await synced(token, mixed);
    expect(third).toMatchObject({ created: 500, updated: 500, unchanged: 0 });
    expect(third.contacts.slice(0, 500).every((c) => c.company === 'Renamed' && c.updatedAt === server.clock.now().toISOString())).toBe(true);
    expect(third.contacts.slice(0, 500).map((c) => c.id)).toEqual(created.contacts.slice(0, 500).map((c) => c.id));
    expect(await list(token)).toHaveLength(1500);
  }, 60_000);

  it('lets two syncs racing for the same new addresses both succeed, one creating and the other matching', async () => {
    const { token } = await writer();
    const entries = Array.from({ length: 300 }, (_, i) => ({ email: `race${i}@example.com`, firstName: 'Racer' }));
    const results = await Promise.all([synced(token, entries), synced(token, [...entries].reverse())]);
    expect(results.map((r) => r.created).sort()).toEqual([0, 300]);
    expect(results.map((r) => r.unchanged).sort()).toEqual([0, 300]);
    expect(await list(token)).toHaveLength(300);
  });

  it('refuses 1,001 contacts', async () => {
    const { token } = await writer();
    const entries = Array.from({ length: 1001 }, (_, i) => ({ email: `p${i}@example.com` }));
    const error = await expectError(await sync(token, { contacts: entries }), 400);
    expect(error.details.fields).toEqual([{ path: 'contacts', message: 'contacts must hold at most 1000 contacts' }]);
    expect(await list(token)).toEqual([]);
  });

  it('replays the first response for a repeated Idempotency-Key without writing again', async () => {
    const { token } = await writer();
    const headers = { 'Idempotency-Key': 'contact-sync-1' };
    const body = { contacts: [{ email: 'once@example.com', firstName: 'Once' }] };
    const first = await sync(token, body, headers);
    expect(first.status).toBe(200);
    const firstBody = SyncContactsResponseSchema.parse(await first.json());
    expect(firstBody.created).toBe(1);

    server.clock.advance(60_000);
    const again = await sync(token, body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(SyncContactsResponseSchema.parse(await again.json())).toEqual(firstBody);
    expect(await list(token)).toEqual(firstBody.contacts);

    // Another body under the same key is refused, and writes nothing either.
    const reused = await expectError(await sync(token, { contacts: [{ email: 'twice@example.com' }] }, headers), 409);
    expect(reused.details.reason).toBe('idempotency_key_reused');
    expect(await list(token)).toEqual(firstBody.contacts);
  });

  it('refuses a key with only contacts:read with 403 naming contacts:write', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:read']);
    const error = await expectError(await sync(token, { contacts: [{ email: 'nope@example.com' }] }), 403);
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toEqual({ required: 'contacts:write', granted: ['contacts:read'] });
    expect(await list(token)).toEqual([]);
  });

  it('answers 401 without a key', async () => {
    const res = await server.fetch('/api/v1/contacts/sync', { method: 'POST', json: { contacts: [{ email: 'anon@example.com' }] } });
    expect((await expectError(res, 401)).code).toBe('unauthorized');
  });

  it('works on the free plan', async () => {
    const ws = await server.createWorkspace({ plan: 'free' });
    const token = await ws.createKey(['contacts:write']);
    expect((await synced(token, [{ email: 'free@example.com' }])).created).toBe(1);
  });

  it("never matches another workspace's contacts", async () => {
    const a = await writer();
    const b = await writer();
    const theirs = await createContact(server, a.token, { email: 'shared@example.com', firstName: 'Theirs' });
    const result = await synced(b.token, [{ email: 'SHARED@example.com', firstName: 'Mine' }]);
    expect(result).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    expect(result.contacts[0]!.id).not.toBe(theirs.id);
    expect(await list(a.token)).toEqual([theirs]);
    expect(await list(b.token)).toEqual(result.contacts);
  });
});
