// @module-tag scale-out — guests' uploads land in the configured storage
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema, FolderListSchema, GuestListSchema, GuestResponseSchema } from '../../contract/collections.js';
import { PublicCollectionFilePageSchema, PublicCollectionSchema } from '../../contract/public-collections.js';
import { AddFilesResponseSchema } from '../../contract/transfers.js';
import { collectionsApi } from '../test/collections.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { tusUpload } from '../test/uploads.js';
import { GUEST_COOKIE, issueGuestSession } from './access.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
});
afterAll(() => server.stop());

async function setUp() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const api = collectionsApi(server, await ws.createKey(['collections:read', 'collections:write'], 'collections'));
  const c = await api.create({ title: 'Client portal', visibility: 'private' });
  const json = async (method: string, path: string, body?: unknown) => api.expectStatus(await api.call(method, path, body), 200);
  const folder = async (name: string, parentId?: string) =>
    ((await api.expectStatus(await api.call('POST', `/collections/${c.id}/folders`, { name, ...(parentId ? { parentId } : {}) }), 201)) as { folder: { id: string } }).folder.id;
  const inbox = await folder('Inbox');
  const inboxRaw = await folder('Raw', inbox);
  const final = await folder('Final');
  await json('POST', `/collections/${c.id}/guests`, { emails: ['ada@example.test'], role: 'contributor', uploadFolderId: inbox });
  await json('POST', `/collections/${c.id}/guests`, { emails: ['bob@example.test'] });
  const guests = GuestListSchema.parse(await json('GET', `/collections/${c.id}/guests`)).guests;
  /** A guest's cookie, as signing in with the mailed link gives it. */
  const cookieOf = (email: string) => {
    const guest = guests.find((g) => g.email === email)!;
    return `${GUEST_COOKIE}=${issueGuestSession(server.services, { id: guest.id, collectionId: c.id }, server.clock.now()).token}`;
  };
  const visit = (cookie: string, path = '', init: { method?: string; json?: unknown } = {}) =>
    server.fetch(`/api/public/collections/${c.slug}${path}`, { method: init.method ?? 'GET', json: init.json, headers: { cookie } });
  return { ws, api, c, json, inbox, inboxRaw, final, guests, cookieOf, visit };
}

describe('guests who contribute', () => {
  it('lets a contributor upload into their folder (and under it), marks the files as theirs, and refuses anywhere else', async () => {
    const s = await setUp();
    const ada = s.cookieOf('ada@example.test');
    expect(s.guests.map((g) => [g.email, g.role, g.uploadFolderId])).toEqual([
      ['ada@example.test', 'contributor', s.inbox],
      ['bob@example.test', 'viewer', null],
    ]);
    const page = PublicCollectionSchema.parse(await (await s.visit(ada)).json());
    expect(page.upload).toEqual({ folderId: s.inbox });

    // Absent folder: their own; a folder inside theirs, with a relative path that makes more.
    const bytes = Buffer.from('a contribution '.repeat(100));
    for (const body of [{ files: [{ name: 'brief.pdf', size: bytes.length }] }, { folderId: s.inboxRaw, files: [{ name: 'take.mov', size: bytes.length, path: 'Day 2' }] }]) {
      const res = await s.visit(ada, '/files', { method: 'POST', json: body });
      expect(res.status, await res.clone().text()).toBe(201);
      const added = AddFilesResponseSchema.parse(await res.json());
      await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: added.files[0]!.uploadToken });
    }
    const owners = CollectionFilePageSchema.parse(await s.json('GET', `/collections/${s.c.id}/files`)).files;
    expect(owners.map((f) => [f.name, f.state, f.addedBy])).toEqual([
      ['brief.pdf', 'complete', { kind: 'guest', id: s.guests[0]!.id, name: null, email: 'ada@example.test' }],
      ['take.mov', 'complete', { kind: 'guest', id: s.guests[0]!.id, name: null, email: 'ada@example.test' }],
    ]);
    const folders = FolderListSchema.parse(await s.json('GET', `/collections/${s.c.id}/folders`)).folders;
    expect(folders.map((f) => f.path)).toEqual(['Final', 'Inbox', 'Inbox/Raw', 'Inbox/Raw/Day 2']);
    // The contributor sees their own files as theirs; another guest sees a guest's, unnamed.
    const asAda = PublicCollectionFilePageSchema.parse(await (await s.visit(ada, '/files')).json()).files;
    expect(asAda.map((f) => f.contributedBy)).toEqual(['you', 'you']);
    const asBob = PublicCollectionFilePageSchema.parse(await (await s.visit(s.cookieOf('bob@example.test'), '/files')).json()).files;
    expect(asBob.map((f) => f.contributedBy)).toEqual(['guest', 'guest']);

    for (const folderId of [s.final, null]) {
      const refused = await errorOf(await s.visit(ada, '/files', { method: 'POST', json: { folderId, files: [{ name: 'x.txt', size: 1 }] } }), 403);
      expect([refused.code, refused.message]).toEqual(['forbidden', 'You may add files only to the folder “Inbox” and the folders in it.']);
    }
    expect(fieldOf(await errorOf(await s.visit(ada, '/files', { method: 'POST', json: { folderId: 'fo_nothing', files: [{ name: 'x.txt', size: 1 }] } }), 400))).toBe('folderId');
    expect(fieldOf(await errorOf(await s.visit(ada, '/files', { method: 'POST', json: { files: [{ name: '../x', size: 1 }] } }), 400))).toBe('files.0.name');
  });

  it('refuses viewers, anyone with the link alone, and a contributor whose role or folder went', async () => {
    const s = await setUp();
    const add = (cookie: string) => s.visit(cookie, '/files', { method: 'POST', json: { files: [{ name: 'x.txt', size: 1 }] } });
    const bob = s.cookieOf('bob@example.test');
    expect(PublicCollectionSchema.parse(await (await s.visit(bob)).json()).upload).toBeNull();
    expect((await errorOf(await add(bob), 403)).code).toBe('forbidden');
    expect((await errorOf(await add(''), 403)).code).toBe('guests_only');
    // A public collection's visitor is not a guest.
    await s.json('PATCH', `/collections/${s.c.id}`, { visibility: 'public' });
    expect((await errorOf(await add(''), 403)).code).toBe('forbidden');

    const ada = s.cookieOf('ada@example.test');
    expect((await add(ada)).status).toBe(201);
    // Their folder in the trash: nowhere to upload, not everywhere.
    await s.json('DELETE', `/collections/${s.c.id}/folders/${s.inbox}`);
    expect(PublicCollectionSchema.parse(await (await s.visit(ada)).json()).upload).toBeNull();
    expect((await errorOf(await add(ada), 403)).code).toBe('forbidden');
    // Anywhere, then a viewer again.
    const adaId = s.guests[0]!.id;
    expect(GuestResponseSchema.parse(await s.json('PATCH', `/collections/${s.c.id}/guests/${adaId}`, { role: 'contributor', uploadFolderId: null })).guest).toMatchObject({ role: 'contributor', uploadFolderId: null });
    expect((await add(ada)).status).toBe(201);
    await s.json('PATCH', `/collections/${s.c.id}/guests/${adaId}`, { role: 'viewer' });
    expect((await errorOf(await add(ada), 403)).code).toBe('forbidden');
  });

  it('checks the folder an owner gives a contributor, and gives a viewer none', async () => {
    const s = await setUp();
    const other = await s.api.create({ title: 'Another' });
    const theirs = ((await s.api.expectStatus(await s.api.call('POST', `/collections/${other.id}/folders`, { name: 'Elsewhere' }), 201)) as { folder: { id: string } }).folder.id;
    for (const body of [
      { emails: ['cy@example.test'], role: 'contributor', uploadFolderId: theirs },
      { emails: ['cy@example.test'], role: 'viewer', uploadFolderId: s.inbox },
      { emails: ['cy@example.test'], role: 'owner' },
    ]) {
      const error = await errorOf(await s.api.call('POST', `/collections/${s.c.id}/guests`, body), 400);
      expect(fieldOf(error)).toBe(body.role === 'owner' ? 'role' : 'uploadFolderId');
    }
    expect((await errorOf(await s.api.call('PATCH', `/collections/${s.c.id}/guests/gu_nobody`, { role: 'viewer' }), 404)).code).toBe('not_found');
  });
});

const fieldOf = (error: { details: Record<string, unknown> }) => (error.details.fields as { path: string }[])[0]!.path;
