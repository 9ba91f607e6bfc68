import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactDeletedSchema, ContactListSchema, ContactResponseSchema } from '../../../../contract/contacts.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('contacts', () => {
  it('are created, read, listed, replaced and deleted, every body matching the contract', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write'], 'Address book');

    const created = await server.fetch('/api/v1/contacts', {
      method: 'POST',
      token,
      json: { email: '  Ada@Example.COM ', firstName: ' Ada ', lastName: 'Lovelace', company: 'Analytical Engines', phone: '+44 (20) 7946-0958', language: 'de' },
    });
    expect(created.status).toBe(201);
    const { contact } = ContactResponseSchema.parse(await created.json());
    expect(contact).toEqual({
      id: expect.stringMatching(/^ct_[0-9A-Za-z]{20}$/),
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines',
      email: 'ada@example.com',
      phone: '+44 (20) 7946-0958',
      type: 'person',
      language: 'de',
      createdBy: { kind: 'key', id: expect.stringMatching(/^key_/), name: 'Address book', email: null },
      createdAt: '2026-03-10T12:00:00.000Z',
      updatedAt: '2026-03-10T12:00:00.000Z',
    });

    const read = await server.fetch(`/api/v1/contacts/${contact.id}`, { token });
    expect(read.status).toBe(200);
    expect(ContactResponseSchema.parse(await read.json()).contact).toEqual(contact);

    const listed = await server.fetch('/api/v1/contacts', { token });
    expect(listed.status).toBe(200);
    expect(ContactListSchema.parse(await listed.json()).contacts).toEqual([contact]);

    server.clock.advance(60_000);
    const replaced = await server.fetch(`/api/v1/contacts/${contact.id}`, {
      method: 'PUT',
      token,
      json: { email: 'info@engines.example', company: 'Analytical Engines', type: 'company' },
    });
    expect(replaced.status).toBe(200);
    const after = ContactResponseSchema.parse(await replaced.json()).contact;
    expect(after).toEqual({
      ...contact,
      email: 'info@engines.example',
      firstName: '',
      lastName: '',
      phone: '',
      type: 'company',
      // Left out of the replacement: reset, like every optional field.
      language: '',
      updatedAt: '2026-03-10T12:01:00.000Z',
    });
    const reread = await server.fetch(`/api/v1/contacts/${contact.id}`, { token });
    expect(ContactResponseSchema.parse(await reread.json()).contact).toEqual(after);

    const deleted = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect(ContactDeletedSchema.parse(await deleted.json())).toEqual({ deleted: true });

    expect((await expectError(await server.fetch(`/api/v1/contacts/${contact.id}`, { token }), 404)).code).toBe('not_found');
    const again = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token });
    expect((await expectError(again, 404)).code).toBe('not_found');
    const empty = await server.fetch('/api/v1/contacts', { token });
    expect(ContactListSchema.parse(await empty.json()).contacts).toEqual([]);
  });

  it('are described in the OpenAPI document under the Contacts tag', async () => {
    const res = await server.fetch('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { operationId: string; tags: string[]; security: Record<string, string[]>[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    const contactOps = operations.filter((op) => op.tags?.includes('Contacts'));
    expect(contactOps.map((op) => op.operationId).sort()).toEqual([
      'createContact',
      'deleteContact',
      'getContact',
      'listContacts',
      'replaceContact',
      'syncContacts',
    ]);
    expect(doc.paths['/contacts']?.post?.security).toEqual([{ bearerAuth: ['contacts:write'] }]);
    expect(doc.paths['/contacts']?.get?.security).toEqual([{ bearerAuth: ['contacts:read'] }]);
    expect(doc.paths['/contacts/sync']?.post?.security).toEqual([{ bearerAuth: ['contacts:write'] }]);
    expect(doc.tags.map((t) => t.name)).toContain('Contacts');
    expect(doc.components.schemas).toHaveProperty('Contact');
    expect(doc.components.schemas).toHaveProperty('ContactInput');
  });
});
