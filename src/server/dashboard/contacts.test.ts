import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactListSchema, MAX_IMPORT_CONTACTS, SyncContactsResponseSchema } from '../../contract/contacts.js';
import { signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

let server: TestServer;
let ws: TestWorkspace;
let other: TestWorkspace;
let cookie: string;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  ws = await server.createWorkspace();
  other = await server.createWorkspace();
  cookie = await signIn(server, ws);
  key = await ws.createKey(['contacts:read', 'contacts:write']);
});
afterAll(() => server.stop());

const importContacts = (contacts: unknown, headers: Record<string, string> = { cookie }) =>
  server.fetch('/api/dashboard/contacts/import', { method: 'POST', json: { contacts }, headers });
const listContacts = async (token = key) => ContactListSchema.parse(await (await server.fetch('/api/v1/contacts', { token })).json()).contacts;

const person = (i: number) => ({
  email: `person${i}@example.com`,
  firstName: `First${i}`,
  lastName: `Last${i}`,
  company: 'Example Ltd',
  phone: '+44 20 7946 0958',
});

describe('the CSV import (dashboard)', () => {
  it('writes a whole address book larger than one sync call, in one go, through the sync rules', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => person(i));
    const res = await importContacts(many);
    expect(res.status).toBe(200);
    const result = SyncContactsResponseSchema.parse(await res.json());
    expect([result.created, result.updated, result.unchanged]).toEqual([2500, 0, 0]);
    expect(await listContacts()).toHaveLength(2500);

    // The same file again changes nothing; one edited row is an update; a new address is created.
    const again = [...many.slice(1), { ...person(0), company: 'Renamed Ltd' }, person(9999)];
    const second = SyncContactsResponseSchema.parse(await (await importContacts(again)).json());
    expect([second.created, second.updated, second.unchanged]).toEqual([1, 1, 2499]);
    const stored = await listContacts();
    expect(stored).toHaveLength(2501);
    expect(stored.find((c) => c.email === 'person0@example.com')?.company).toBe('Renamed Ltd');
  });

  it('makes the contacts it creates the importing member’s', async () => {
    const res = await importContacts([{ email: 'imported@example.com' }]);
    expect(res.status).toBe(200);
    const [contact] = SyncContactsResponseSchema.parse(await res.json()).contacts;
    const importer = { kind: 'member', id: ws.userId, name: null, email: ws.email };
    expect(contact!.createdBy).toEqual(importer);
    expect((await listContacts()).find((c) => c.email === 'imported@example.com')?.createdBy).toEqual(importer);
  });

  it('refuses the whole file for one bad row, naming it, and writes nothing', async () => {
    const before = await listContacts();
    const res = await importContacts([{ email: 'new-one@example.com' }, { email: 'not an address' }, { email: 'NEW-ONE@example.com' }]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { fields: { path: string }[] } } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.fields.map((f) => f.path)).toEqual(expect.arrayContaining(['contacts.1.email', 'contacts.2.email']));
    expect(await listContacts()).toEqual(before);
  });

  it(`takes at most ${MAX_IMPORT_CONTACTS} contacts, and nothing from a signed-out or cross-site caller`, async () => {
    const tooMany = Array.from({ length: MAX_IMPORT_CONTACTS + 1 }, (_, i) => ({ email: `x${i}@example.com` }));
    const res = await importContacts(tooMany);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { fields: { path: string }[] } } }).error.details.fields[0]!.path).toBe('contacts');

    expect((await importContacts([{ email: 'a@example.com' }], {})).status).toBe(401);
    expect((await importContacts([{ email: 'a@example.com' }], { cookie, origin: 'https://evil.example' })).status).toBe(403);
    expect((await listContacts()).some((c) => c.email === 'a@example.com')).toBe(false);
  });

  it("writes only the signed-in owner's workspace", async () => {
    await importContacts([{ email: 'only-mine@example.com', firstName: 'Mine' }]);
    const otherKey = await other.createKey(['contacts:read']);
    expect(await listContacts(otherKey)).toEqual([]);
  });

  it('keeps the 1 MiB limit for every other dashboard body', async () => {
    const res = await server.fetch('/api/dashboard/notifications', {
      method: 'PATCH',
      body: JSON.stringify({ downloads: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
  });
});
