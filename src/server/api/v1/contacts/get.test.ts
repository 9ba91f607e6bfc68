import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactResponseSchema } from '../../../../contract/contacts.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('GET /api/v1/contacts/{id}', () => {
  it('reads a contact with contacts:write, which includes contacts:read', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const contact = await createContact(server, token, { email: 'read@example.com' });
    const res = await server.fetch(`/api/v1/contacts/${contact.id}`, { token });
    expect(res.status).toBe(200);
    expect(ContactResponseSchema.parse(await res.json()).contact).toEqual(contact);
  });

  it('answers 404 for another workspace\'s contact', async () => {
    const owner = await server.createWorkspace();
    const contact = await createContact(server, await owner.createKey(['contacts:write']), { email: 'private@example.com' });
    const other = await server.createWorkspace();
    const res = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: await other.createKey(['contacts:write']) });
    expect((await expectError(res, 404)).code).toBe('not_found');
  });

  it('answers 404 for an id that never existed', async () => {
    const ws = await server.createWorkspace();
    const res = await server.fetch('/api/v1/contacts/ct_doesnotexist', { token: await ws.createKey(['contacts:read']) });
    expect((await expectError(res, 404)).code).toBe('not_found');
  });
});
