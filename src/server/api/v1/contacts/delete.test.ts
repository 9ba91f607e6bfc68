import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactResponseSchema } from '../../../../contract/contacts.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('DELETE /api/v1/contacts/{id}', () => {
  it('answers 404 for another workspace\'s contact and leaves it in place', async () => {
    const owner = await server.createWorkspace();
    const ownerToken = await owner.createKey(['contacts:write']);
    const contact = await createContact(server, ownerToken, { email: 'keep@example.com' });
    const other = await server.createWorkspace();
    const res = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token: await other.createKey(['contacts:write']) });
    expect((await expectError(res, 404)).code).toBe('not_found');

    const still = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: ownerToken });
    expect(ContactResponseSchema.parse(await still.json()).contact).toEqual(contact);
  });

  it('frees the address for a new contact', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const first = await createContact(server, token, { email: 'reuse@example.com' });
    expect((await server.fetch(`/api/v1/contacts/${first.id}`, { method: 'DELETE', token })).status).toBe(200);
    const second = await createContact(server, token, { email: 'reuse@example.com' });
    expect(second.id).not.toBe(first.id);
  });

  it('refuses a key with only contacts:read', async () => {
    const ws = await server.createWorkspace();
    const contact = await createContact(server, await ws.createKey(['contacts:write']), { email: 'ro@example.com' });
    const res = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token: await ws.createKey(['contacts:read']) });
    expect((await expectError(res, 403)).details.required).toBe('contacts:write');
  });
});
