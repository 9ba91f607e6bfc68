import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactResponseSchema } from '../../../../contract/contacts.js';
import { dashboardToken, expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact, fieldPaths } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const post = (token: string, json: unknown, headers?: Record<string, string>) =>
  server.fetch('/api/v1/contacts', { method: 'POST', token, json, headers });

describe('POST /api/v1/contacts', () => {
  it('needs only an email and fills the other fields with their defaults', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const contact = await createContact(server, token, { email: 'grace@example.com' });
    expect(contact).toMatchObject({ email: 'grace@example.com', firstName: '', lastName: '', company: '', phone: '', type: 'person' });
  });

  it('says who made it, a member through the dashboard or an API key, and keeps it theirs when someone else replaces it', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:write'], 'CRM export');
    const member = await dashboardToken(server, ws);
    const owner = { kind: 'member', id: ws.userId, name: null, email: ws.email };

    const byMember = await createContact(server, member, { email: 'ada@example.com' });
    expect(byMember.createdBy).toEqual(owner);
    const byKey = await createContact(server, key, { email: 'grace@example.com' });
    expect(byKey.createdBy).toEqual({ kind: 'key', id: expect.stringMatching(/^key_/), name: 'CRM export', email: null });

    const replaced = await server.fetch(`/api/v1/contacts/${byMember.id}`, { method: 'PUT', token: key, json: { email: 'ada@example.com', firstName: 'Ada' } });
    expect(ContactResponseSchema.parse(await replaced.json()).contact.createdBy).toEqual(owner);
    const read = await server.fetch(`/api/v1/contacts/${byKey.id}`, { token: member });
    expect(ContactResponseSchema.parse(await read.json()).contact.createdBy).toEqual(byKey.createdBy);
  });

  it('answers 409 contact_exists naming the holder for an address already in the workspace, whatever its case', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const first = await createContact(server, token, { email: 'linus@example.com' });

    for (const email of ['linus@example.com', 'Linus@EXAMPLE.com', ' LINUS@example.com ']) {
      const error = await expectError(await post(token, { email, firstName: 'Other' }), 409);
      expect(error.code).toBe('conflict');
      expect(error.details).toEqual({ reason: 'contact_exists', contactId: first.id });
    }
  });

  it('allows the same address in two workspaces', async () => {
    const a = await server.createWorkspace();
    const b = await server.createWorkspace();
    await createContact(server, await a.createKey(['contacts:write']), { email: 'shared@example.com' });
    await createContact(server, await b.createKey(['contacts:write']), { email: 'shared@example.com' });
  });

  it.each([
    ['a missing email', { firstName: 'No' }, 'email', 'email is required'],
    ['a malformed email', { email: 'not-an-address' }, 'email', 'email must be a valid email address'],
    ['an unknown type', { email: 'x@example.com', type: 'robot' }, 'type', 'type must be one of: person, company'],
    ['an over-long first name', { email: 'x@example.com', firstName: 'a'.repeat(201) }, 'firstName', 'firstName must be at most 200 characters'],
    ['an over-long company', { email: 'x@example.com', company: 'c'.repeat(201) }, 'company', 'company must be at most 200 characters'],
    ['a phone with letters', { email: 'x@example.com', phone: '555-CALL-NOW' }, 'phone', 'phone may only contain digits, spaces and + - ( ) .'],
    ['a control character in a name', { email: 'x@example.com', lastName: 'Null\u0000Byte' }, 'lastName', 'lastName must not contain control characters'],
    ['a null instead of a string', { email: 'x@example.com', company: null }, 'company', 'company must be a string'],
  ])('answers 400 naming the field for %s', async (_, body, path, message) => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const error = await expectError(await post(token, body), 400);
    expect(fieldPaths(error)).toEqual([path]);
    expect(error.details.fields).toEqual([{ path, message }]);
  });

  it('accepts names of exactly 200 characters after trimming', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const contact = await createContact(server, token, { email: 'long@example.com', lastName: `  ${'b'.repeat(200)}  ` });
    expect(contact.lastName).toHaveLength(200);
  });

  it('refuses a key with only contacts:read with 403 naming contacts:write', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:read']);
    const error = await expectError(await post(token, { email: 'nope@example.com' }), 403);
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toEqual({ required: 'contacts:write', granted: ['contacts:read'] });
  });

  it('answers 401 without a key', async () => {
    const res = await server.fetch('/api/v1/contacts', { method: 'POST', json: { email: 'anon@example.com' } });
    expect((await expectError(res, 401)).code).toBe('unauthorized');
  });

  it('replays the first response for a repeated Idempotency-Key instead of answering 409', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const headers = { 'Idempotency-Key': 'contact-create-1' };
    const first = await post(token, { email: 'once@example.com' }, headers);
    expect(first.status).toBe(201);
    const again = await post(token, { email: 'once@example.com' }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(ContactResponseSchema.parse(await again.json())).toEqual(ContactResponseSchema.parse(await first.json()));
  });
});
