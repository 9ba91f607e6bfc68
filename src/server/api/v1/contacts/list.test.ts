import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactListSchema } from '../../../../contract/contacts.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact, fieldPaths } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function list(token: string, q?: string) {
  const res = await server.fetch(`/api/v1/contacts${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`, { token });
  expect(res.status).toBe(200);
  return ContactListSchema.parse(await res.json()).contacts;
}

describe('GET /api/v1/contacts', () => {
  it('orders by last name, then first name, then email, case-insensitively, with empty names last', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    for (const c of [
      { email: 'nobody@example.com' },
      { email: 'z-turing@example.com', firstName: 'alan', lastName: 'turing' },
      { email: 'hopper@example.com', firstName: 'Grace', lastName: 'Hopper' },
      { email: 'b-turing@example.com', firstName: 'Alan', lastName: 'Turing' },
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'anon@example.com', firstName: 'Zed' },
      { email: 'byron@example.com', lastName: 'lovelace' },
      { email: 'babbage@example.com', firstName: 'charles', lastName: 'Babbage' },
      { email: 'acme@example.com', company: 'Acme', type: 'company' as const },
    ]) {
      await createContact(server, token, c);
    }
    expect((await list(token)).map((c) => c.email)).toEqual([
      'babbage@example.com',
      'hopper@example.com',
      'ada@example.com',
      'byron@example.com',
      'b-turing@example.com',
      'z-turing@example.com',
      'anon@example.com',
      'acme@example.com',
      'nobody@example.com',
    ]);
  });

  it('filters with q by a case-insensitive substring of the company', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    await createContact(server, token, { email: 'one@example.com', company: 'Analytical Engines Ltd' });
    await createContact(server, token, { email: 'two@example.com', company: 'Difference Works' });
    expect((await list(token, 'ENGINE')).map((c) => c.email)).toEqual(['one@example.com']);
  });

  it('matches q against first and last name together, and against the email', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    await createContact(server, token, { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    await createContact(server, token, { email: 'grace@navy.example', firstName: 'Grace', lastName: 'Hopper' });
    expect((await list(token, 'ada love')).map((c) => c.email)).toEqual(['ada@example.com']);
    expect((await list(token, 'navy')).map((c) => c.email)).toEqual(['grace@navy.example']);
    expect(await list(token, 'nobody')).toEqual([]);
    expect(await list(token, '  ')).toHaveLength(2);
  });

  it('treats % and _ in q literally', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['contacts:write']);
    await createContact(server, token, { email: 'percent@example.com', company: '100% Organic' });
    await createContact(server, token, { email: 'plain@example.com', company: '100 Organic' });
    await createContact(server, token, { email: 'under@example.com', company: 'a_b Corp' });
    await createContact(server, token, { email: 'axb@example.com', company: 'axb Corp' });
    await createContact(server, token, { email: 'slash@example.com', company: 'Back\\slash' });
    expect((await list(token, '%')).map((c) => c.email)).toEqual(['percent@example.com']);
    expect((await list(token, '100%')).map((c) => c.email)).toEqual(['percent@example.com']);
    expect((await list(token, 'a_b')).map((c) => c.email)).toEqual(['under@example.com']);
    expect((await list(token, '\\')).map((c) => c.email)).toEqual(['slash@example.com']);
  });

  it('never shows another workspace\'s contacts', async () => {
    const mine = await server.createWorkspace();
    const theirs = await server.createWorkspace();
    const myToken = await mine.createKey(['contacts:write']);
    await createContact(server, myToken, { email: 'mine@example.com', company: 'Shared Co' });
    await createContact(server, await theirs.createKey(['contacts:write']), { email: 'theirs@example.com', company: 'Shared Co' });
    expect((await list(myToken)).map((c) => c.email)).toEqual(['mine@example.com']);
    expect((await list(myToken, 'shared')).map((c) => c.email)).toEqual(['mine@example.com']);
  });

  it('is allowed with contacts:read and refused with another resource\'s scope', async () => {
    const ws = await server.createWorkspace();
    expect(await list(await ws.createKey(['contacts:read']))).toEqual([]);
    const res = await server.fetch('/api/v1/contacts', { token: await ws.createKey(['transfers:write']) });
    const error = await expectError(res, 403);
    expect(error.details.required).toBe('contacts:read');
  });

  it('answers 400 naming q when it is too long', async () => {
    const ws = await server.createWorkspace();
    const res = await server.fetch(`/api/v1/contacts?q=${'x'.repeat(201)}`, { token: await ws.createKey(['contacts:read']) });
    expect(fieldPaths(await expectError(res, 400))).toEqual(['q']);
  });
});
