import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactResponseSchema } from '../../../../contract/contacts.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact, fieldPaths } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const put = (token: string, id: string, json: unknown) => server.fetch(`/api/v1/contacts/${id}`, { method: 'PUT', token, json });

describe('PUT /api/v1/contacts/{id}', () => {
  it('keeps the contact\'s own address, in another case, without a conflict', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const contact = await createContact(server, token, { email: 'same@example.com', firstName: 'Old' });
    const res = await put(token, contact.id, { email: 'SAME@example.com', firstName: 'New' });
    expect(res.status).toBe(200);
    expect(ContactResponseSchema.parse(await res.json()).contact).toMatchObject({ email: 'same@example.com', firstName: 'New' });
  });

  it('answers 409 contact_exists when the new address belongs to another contact, whatever its case', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const holder = await createContact(server, token, { email: 'taken@example.com' });
    const contact = await createContact(server, token, { email: 'free@example.com', firstName: 'Kept' });
    const error = await expectError(await put(token, contact.id, { email: 'Taken@Example.com' }), 409);
    expect(error.code).toBe('conflict');
    expect(error.details).toEqual({ reason: 'contact_exists', contactId: holder.id });

    const unchanged = await server.fetch(`/api/v1/contacts/${contact.id}`, { token });
    expect(ContactResponseSchema.parse(await unchanged.json()).contact).toEqual(contact);
  });

  it('answers 404 for another workspace\'s contact and leaves it untouched', async () => {
    const owner = await server.createWorkspace();
    const ownerToken = await owner.createKey(['contacts:write']);
    const contact = await createContact(server, ownerToken, { email: 'theirs@example.com', firstName: 'Theirs' });
    const other = await server.createWorkspace();
    const res = await put(await other.createKey(['contacts:write']), contact.id, { email: 'hijack@example.com' });
    expect((await expectError(res, 404)).code).toBe('not_found');

    const still = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: ownerToken });
    expect(ContactResponseSchema.parse(await still.json()).contact).toEqual(contact);
  });

  it('validates the body like a create, naming the field', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    const contact = await createContact(server, token, { email: 'valid@example.com' });
    expect(fieldPaths(await expectError(await put(token, contact.id, { firstName: 'No email' }), 400))).toEqual(['email']);
    expect(fieldPaths(await expectError(await put(token, contact.id, { email: 'valid@example.com', type: 'org' }), 400))).toEqual(['type']);
  });

  it('refuses a key with only contacts:read', async () => {
    const ws = await server.createWorkspace();
    const contact = await createContact(server, await ws.createKey(['contacts:write']), { email: 'ro@example.com' });
    const error = await expectError(await put(await ws.createKey(['contacts:read']), contact.id, { email: 'ro@example.com' }), 403);
    expect(error.details.required).toBe('contacts:write');
  });
});
