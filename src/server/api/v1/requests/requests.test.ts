import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderListSchema, FolderResponseSchema } from '../../../../contract/collections.js';
import { collectionsApi } from '../../../test/collections.js';
import { fieldOf, requestsApi, slugOf, submit, uploaderApi } from '../../../test/requests.js';
import { uploadRequests } from '../../../db/schema/index.js';
import { dashboardToken, errorOf, startTestServer, type TestServer } from '../../../test/harness.js';
import { randomFile } from '../../../test/uploads.js';

/**
 * Upload requests through /api/v1/requests as an integrator calls them: create with defaults and
 * checked destinations, list, read, change only what is given, the state machine with every allowed
 * and refused move, what deleting the collection does, the counts and submissions that uploads bring,
 * scopes, the plan gate and its lapse, and another workspace's ids.
 */

let server: TestServer;
beforeAll(async () => {
  // Submissions go through the public API, many calls from one address.
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
});
afterAll(() => server?.stop());

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(server.clock.now().getTime() + hours * HOUR).toISOString();

/** A paid workspace with a key for collections and requests, and a collection to send files to. */
async function paidWorkspace() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const token = await ws.createKey(['collections:read', 'collections:write'], 'requests');
  const collections = collectionsApi(server, token);
  const collection = await collections.create({ title: 'Client documents' });
  return { ws, token, collections, collection, api: requestsApi(server, token) };
}

async function folderIn(token: string, collectionId: string, name: string, parentId: string | null = null) {
  const res = await server.fetch(`/api/v1/collections/${collectionId}/folders`, { method: 'POST', token, json: { name, parentId } });
  expect(res.status, await res.clone().text()).toBe(201);
  return FolderResponseSchema.parse(await res.json()).folder;
}

describe('creating and reading upload requests', () => {
  it('creates an open request with the defaults and an unguessable /r/<slug> link, and reads it back alone and in the list', async () => {
    const { api, collection } = await paidWorkspace();
    const created = await api.create({ title: '  Send us your signed contract  ', collectionId: collection.id });
    expect(created).toMatchObject({
      title: 'Send us your signed contract',
      message: null,
      collectionId: collection.id,
      folderId: null,
      status: 'open',
      acceptingFiles: true,
      deadline: null,
      // The default in force: a submission cannot hold files without end.
      maxFiles: 500,
      maxBytes: null,
      allowedTypes: [],
      requireEmail: false,
      submissionCount: 0,
      fileCount: 0,
      sizeBytes: 0,
      lastSubmissionAt: null,
      createdAt: server.clock.now().toISOString(),
      updatedAt: server.clock.now().toISOString(),
    });
    expect(created.id).toMatch(/^req_/);
    expect(created.url).toMatch(new RegExp(`^${server.services.config.PUBLIC_URL}/r/[0-9A-Za-z]{22}$`));
    expect(await api.get(created.id)).toEqual(created);
    expect(await api.list()).toEqual([created]);
  });

  it('keeps every field given at creation: a folder, paused, a deadline, limits, types (lower-cased, once each) and the email rule', async () => {
    const { api, token, collection } = await paidWorkspace();
    const folder = await folderIn(token, collection.id, 'Incoming');
    const deadline = inHours(48);
    const created = await api.create({
      title: 'Shoot delivery',
      message: 'Line one\nLine two <b>not bold</b>',
      collectionId: collection.id,
      folderId: folder.id,
      status: 'paused',
      deadline,
      maxFiles: 20,
      maxBytes: 5_000_000,
      allowedTypes: ['IMAGE/*', 'application/pdf', 'image/*'],
      requireEmail: true,
    });
    expect(created).toMatchObject({
      message: 'Line one\nLine two <b>not bold</b>',
      folderId: folder.id,
      status: 'paused',
      acceptingFiles: false,
      deadline: new Date(deadline).toISOString(),
      maxFiles: 20,
      maxBytes: 5_000_000,
      allowedTypes: ['image/*', 'application/pdf'],
      requireEmail: true,
    });
  });

  it('refuses bad input naming the field, and creates nothing', async () => {
    const { api, token, collection, collections } = await paidWorkspace();
    const other = await paidWorkspace();
    const elsewhere = await collections.create({ title: 'Elsewhere' });
    const folderOfElsewhere = await folderIn(token, elsewhere.id, 'Not here');
    const base = { title: 'Contracts', collectionId: collection.id };
    for (const [body, field] of [
      [{ title: 'No collection' }, 'collectionId'],
      [{ ...base, collectionId: 'col_doesnotexist000000000' }, 'collectionId'],
      [{ ...base, collectionId: other.collection.id }, 'collectionId'],
      [{ ...base, folderId: folderOfElsewhere.id }, 'folderId'],
      [{ ...base, folderId: 'fo_doesnotexist0000000000' }, 'folderId'],
      [{ ...base, deadline: inHours(-1) }, 'deadline'],
      [{ ...base, deadline: server.clock.now().toISOString() }, 'deadline'],
      [{ ...base, deadline: 'next friday' }, 'deadline'],
      [{ ...base, allowedTypes: ['pdf'] }, 'allowedTypes.0'],
      [{ ...base, allowedTypes: ['image/png', 'image/png; charset=x'] }, 'allowedTypes.1'],
      [{ ...base, allowedTypes: 'image/*' }, 'allowedTypes'],
      [{ ...base, maxFiles: 0 }, 'maxFiles'],
      [{ ...base, maxFiles: 2.5 }, 'maxFiles'],
      [{ ...base, maxBytes: 0 }, 'maxBytes'],
      [{ ...base, title: '   ' }, 'title'],
      [{ ...base, title: 'bell\u0007' }, 'title'],
      [{ ...base, status: 'closed' }, 'status'],
      [{ ...base, requireEmail: 'yes' }, 'requireEmail'],
    ] as const) {
      const error = await errorOf(await api.call('POST', '/requests', body), 400);
      expect(error.code).toBe('invalid_request');
      expect(fieldOf(error), JSON.stringify(body)).toBe(field);
    }
    expect(await api.list()).toEqual([]);
  });

  it('says who made each request, a member or an API key, and keeps it theirs when someone else changes it; null for one made before teams', async () => {
    const { ws, api, collection } = await paidWorkspace();
    const byKey = await api.create({ title: 'From the key', collectionId: collection.id });
    const key = { kind: 'key', id: expect.stringMatching(/^key_/), name: 'requests', email: null };
    expect(byKey.createdBy).toEqual(key);
    server.clock.advance(1000);
    const byMember = await requestsApi(server, await dashboardToken(server, ws)).create({ title: 'From the owner', collectionId: collection.id });
    const owner = { kind: 'member', id: ws.userId, name: null, email: ws.email };
    expect(byMember.createdBy).toEqual(owner);
    expect((await api.get(byMember.id)).createdBy).toEqual(owner);
    expect((await api.update(byMember.id, { title: 'Renamed by the key' })).createdBy).toEqual(owner);
    server.clock.advance(1000);
    const before = await api.create({ title: 'Before teams', collectionId: collection.id });
    await server.services.db.update(uploadRequests).set({ createdBy: null, createdByKey: null }).where(eq(uploadRequests.id, before.id));
    expect((await api.list()).map((r) => [r.title, r.createdBy])).toEqual([
      ['Before teams', null],
      ['Renamed by the key', owner],
      ['From the key', key],
    ]);
  });

  it('lists every request of the workspace in one response, newest first', async () => {
    const { api, collection } = await paidWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      ids.push((await api.create({ title: `Request ${i}`, collectionId: collection.id })).id);
      server.clock.advance(1000);
    }
    const listed = await api.list();
    expect(listed.map((r) => r.id)).toEqual(ids.reverse());
  });

  it('changes only the fields given', async () => {
    const { api, token, collection, collections } = await paidWorkspace();
    const folder = await folderIn(token, collection.id, 'Incoming');
    const created = await api.create({
      title: 'Contracts',
      message: 'Please sign',
      collectionId: collection.id,
      folderId: folder.id,
      deadline: inHours(24),
      maxFiles: 3,
      maxBytes: 1000,
      allowedTypes: ['application/pdf'],
      requireEmail: true,
    });
    server.clock.advance(5000);

    const renamed = await api.update(created.id, { title: 'Signed contracts' });
    expect(renamed).toEqual({ ...created, title: 'Signed contracts', updatedAt: server.clock.now().toISOString() });

    const cleared = await api.update(created.id, { message: null, deadline: null, maxFiles: null, maxBytes: null, allowedTypes: [], requireEmail: false });
    expect(cleared).toMatchObject({
      title: 'Signed contracts',
      message: null,
      folderId: folder.id,
      deadline: null,
      // null asks for the default again.
      maxFiles: 500,
      maxBytes: null,
      allowedTypes: [],
      requireEmail: false,
    });
    expect((await api.update(created.id, { message: 'Again' })).message).toBe('Again');
    expect((await api.update(created.id, { message: '' })).message).toBeNull();
    expect((await api.update(created.id, { folderId: null })).folderId).toBeNull();
    expect((await api.update(created.id, { folderId: folder.id })).folderId).toBe(folder.id);

    // Another collection: its top level unless a folder of it is given.
    const second = await collections.create({ title: 'Second' });
    expect(await api.update(created.id, { collectionId: second.id })).toMatchObject({ collectionId: second.id, folderId: null, title: 'Signed contracts' });
    const inSecond = await folderIn(token, second.id, 'Inbox');
    expect(await api.update(created.id, { folderId: inSecond.id })).toMatchObject({ collectionId: second.id, folderId: inSecond.id });

    // Refused changes name their field and change nothing.
    const before = await api.get(created.id);
    for (const [body, field] of [
      [{ folderId: folder.id }, 'folderId'],
      [{ deadline: inHours(-2) }, 'deadline'],
      [{ collectionId: 'col_doesnotexist000000000' }, 'collectionId'],
      [{ maxFiles: 0 }, 'maxFiles'],
      [{ status: 'archived' }, 'status'],
      [{ allowedTypes: ['*/*'] }, 'allowedTypes.0'],
    ] as const) {
      expect(fieldOf(await errorOf(await api.call('PATCH', `/requests/${created.id}`, body), 400)), JSON.stringify(body)).toBe(field);
    }
    expect(await api.get(created.id)).toEqual(before);
  });
});

describe('the state machine', () => {
  it('moves open ↔ paused and either to closed, and takes the same status again as no change', async () => {
    const { api, collection } = await paidWorkspace();
    const r = await api.create({ title: 'States', collectionId: collection.id });
    const moves: [string, boolean][] = [
      ['open', true],
      ['paused', false],
      ['paused', false],
      ['open', true],
      ['closed', false],
    ];
    for (const [status, accepting] of moves) {
      expect(await api.update(r.id, { status }), `→ ${status}`).toMatchObject({ status, acceptingFiles: accepting });
    }

    const paused = await api.create({ title: 'Paused, then closed', collectionId: collection.id, status: 'paused' });
    expect(await api.update(paused.id, { status: 'closed' })).toMatchObject({ status: 'closed', acceptingFiles: false });
  });

  it('takes no change at all once closed: 409 conflict with reason closed, the request unchanged', async () => {
    const { api, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Final', collectionId: collection.id });
    const closed = await api.update(r.id, { status: 'closed' });
    server.clock.advance(1000);
    for (const body of [
      { status: 'open' },
      { status: 'paused' },
      { status: 'closed' },
      { title: 'Reopened by the back door' },
      { deadline: inHours(5) },
      { maxFiles: 2 },
      { collectionId: collection.id },
      {},
    ]) {
      const error = await errorOf(await api.call('PATCH', `/requests/${r.id}`, body), 409);
      expect(error, JSON.stringify(body)).toMatchObject({ code: 'conflict', details: { reason: 'closed' } });
    }
    expect(await api.get(r.id)).toEqual(closed);
    expect((await uploaderApi(server, slugOf(r)).describe()).state).toBe('closed');
  });

  it('closes the requests of a deleted collection and clears their collection; another workspace deleting by the same id closes nothing', async () => {
    const { api, collections, collection, token } = await paidWorkspace();
    const folder = await folderIn(token, collection.id, 'Inbox');
    const open = await api.create({ title: 'Open', collectionId: collection.id, folderId: folder.id });
    server.clock.advance(1000);
    const paused = await api.create({ title: 'Paused', collectionId: collection.id, status: 'paused' });
    server.clock.advance(1000);
    const kept = await collections.create({ title: 'Kept' });
    const elsewhere = await api.create({ title: 'Elsewhere', collectionId: kept.id });

    const stranger = await paidWorkspace();
    expect((await errorOf(await stranger.collections.call('DELETE', `/collections/${collection.id}`), 404)).code).toBe('not_found');
    expect(await api.get(open.id)).toEqual(open);
    expect(await api.get(paused.id)).toEqual(paused);

    server.clock.advance(1000);
    expect(await collections.expectStatus(await collections.call('DELETE', `/collections/${collection.id}`), 200)).toEqual({ deleted: true });
    for (const r of [open, paused]) {
      expect(await api.get(r.id)).toMatchObject({
        status: 'closed',
        collectionId: null,
        folderId: null,
        acceptingFiles: false,
        updatedAt: server.clock.now().toISOString(),
      });
      expect((await errorOf(await api.call('PATCH', `/requests/${r.id}`, { status: 'open' }), 409)).details.reason).toBe('closed');
      expect(await uploaderApi(server, slugOf(r)).describe()).toMatchObject({ state: 'closed', closedReason: 'closed' });
    }
    expect(await api.get(elsewhere.id)).toEqual(elsewhere);
    expect((await api.list()).map((r) => [r.title, r.status])).toEqual([
      ['Elsewhere', 'open'],
      ['Paused', 'closed'],
      ['Open', 'closed'],
    ]);
  });
});

describe('what submissions bring', () => {
  it('counts submissions, the files they brought that are still in the collection, their bytes, and when the latest was started', async () => {
    const { api, collections, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Counts', collectionId: collection.id });
    const a = [randomFile(1200), randomFile(300)];
    const b = [randomFile(4000)];
    await submit(server, slugOf(r), { name: 'Ada' }, [
      { name: 'one.bin', bytes: a[0]! },
      { name: 'two.bin', bytes: a[1]!, path: 'Scans' },
    ]);
    server.clock.advance(60_000);
    const second = await submit(server, slugOf(r), { name: 'Grace' }, [{ name: 'three.bin', bytes: b[0]! }]);
    const secondAt = server.clock.now().toISOString();
    server.clock.advance(60_000);

    const counted = await api.get(r.id);
    expect(counted).toMatchObject({ submissionCount: 2, fileCount: 3, sizeBytes: 1200 + 300 + 4000, lastSubmissionAt: secondAt });
    expect((await api.list()).find((x) => x.id === r.id)).toMatchObject({ submissionCount: 2, fileCount: 3, sizeBytes: 5500, lastSubmissionAt: secondAt });

    // A file the owner deletes from the collection is no longer counted; the submission still is.
    const res = await collections.call('DELETE', `/collections/${collection.id}/files`, { fileIds: second.fileIds });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await api.get(r.id)).toMatchObject({ submissionCount: 2, fileCount: 2, sizeBytes: 1500, lastSubmissionAt: secondAt });
  });

  it('lists the submissions newest first: the uploader and message as typed, their folder and their files', async () => {
    const { api, collections, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Submissions', collectionId: collection.id });
    const pdf = randomFile(2048);
    const notes = randomFile(512);
    const first = await submit(server, slugOf(r), { name: 'Ada <Lovelace>', email: 'ada@example.test', message: 'Hi!\n<script>alert(1)</script>' }, [
      { name: 'contract.pdf', bytes: pdf, mimeType: 'application/pdf' },
      { name: 'notes.txt', bytes: notes, mimeType: 'text/plain', path: 'Notes/2026' },
    ]);
    const firstAt = server.clock.now().toISOString();
    server.clock.advance(60_000);
    // Started and never sent: listed as uploading, its file not yet arrived.
    const second = await uploaderApi(server, slugOf(r)).start({ name: 'Grace' }, [{ name: 'later.bin', bytes: randomFile(10) }]);

    const folders = FolderListSchema.parse(await collections.expectStatus(await collections.call('GET', `/collections/${collection.id}/folders`), 200)).folders;
    const folderOf = (path: string) => folders.find((f) => f.path === path)!.id;
    const [newest, oldest] = await api.submissions(r.id);
    expect(newest).toEqual({
      id: second.submission.id,
      uploader: { name: 'Grace', email: null },
      message: null,
      status: 'uploading',
      collectionId: collection.id,
      folderId: folderOf('Grace 2026-03-10'),
      fileCount: 1,
      sizeBytes: 10,
      files: [
        {
          id: second.files[0]!.id,
          name: 'later.bin',
          sizeBytes: 10,
          mimeType: 'application/octet-stream',
          folderId: folderOf('Grace 2026-03-10'),
          state: 'uploading',
        },
      ],
      // Not sent: the owner's alone, discarded a week after it was started unless sent or published.
      sent: false,
      discardAt: new Date(server.clock.now().getTime() + 7 * 24 * 3_600_000).toISOString(),
      createdAt: server.clock.now().toISOString(),
      completedAt: null,
    });
    expect(oldest).toEqual({
      id: first.started.submission.id,
      uploader: { name: 'Ada <Lovelace>', email: 'ada@example.test' },
      message: 'Hi!\n<script>alert(1)</script>',
      status: 'complete',
      sent: true,
      discardAt: null,
      collectionId: collection.id,
      folderId: folderOf('Ada <Lovelace> 2026-03-10'),
      fileCount: 2,
      sizeBytes: 2560,
      files: [
        {
          id: first.fileIds[0],
          name: 'contract.pdf',
          sizeBytes: 2048,
          mimeType: 'application/pdf',
          folderId: folderOf('Ada <Lovelace> 2026-03-10'),
          state: 'complete',
        },
        {
          id: first.fileIds[1],
          name: 'notes.txt',
          sizeBytes: 512,
          mimeType: 'text/plain',
          folderId: folderOf('Ada <Lovelace> 2026-03-10/Notes/2026'),
          state: 'complete',
        },
      ],
      createdAt: firstAt,
      completedAt: firstAt,
    });
  });
});

describe('who may call it', () => {
  it('reads with collections:read (or :write) and changes only with collections:write: 403 insufficient_scope otherwise', async () => {
    const { ws, api, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Scopes', collectionId: collection.id });
    const readOnly = await ws.createKey(['collections:read'], 'read only');
    const writeOnly = await ws.createKey(['collections:write'], 'write only');
    const unrelated = await ws.createKey(['transfers:read', 'transfers:write', 'webhooks:write'], 'unrelated');
    const reads = [
      ['GET', '/requests'],
      ['GET', `/requests/${r.id}`],
      ['GET', `/requests/${r.id}/submissions`],
    ] as const;
    const writes = [
      ['POST', '/requests', { title: 'New', collectionId: collection.id }],
      ['PATCH', `/requests/${r.id}`, { title: 'Changed' }],
    ] as const;
    for (const [method, path] of reads) {
      expect((await server.fetch(`/api/v1${path}`, { method, token: readOnly })).status, `${method} ${path}`).toBe(200);
      expect((await server.fetch(`/api/v1${path}`, { method, token: writeOnly })).status, `${method} ${path}`).toBe(200);
      expect((await errorOf(await server.fetch(`/api/v1${path}`, { method, token: unrelated }), 403)).code).toBe('insufficient_scope');
    }
    for (const [method, path, json] of writes) {
      for (const token of [readOnly, unrelated]) {
        expect((await errorOf(await server.fetch(`/api/v1${path}`, { method, token, json }), 403)).code, `${method} ${path}`).toBe('insufficient_scope');
      }
    }
    expect((await api.get(r.id)).title).toBe('Scopes');
    expect((await requestsApi(server, writeOnly).update(r.id, { title: 'Changed' })).title).toBe('Changed');
  });

  it('reads on the free plan, but creating and changing need a paid plan: 402 upgrade_required', async () => {
    const free = await server.createWorkspace();
    expect(await requestsApi(server, await free.createKey(['collections:read'])).list()).toEqual([]);

    const { ws, api, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Kept readable', collectionId: collection.id });
    await server.setPlan(ws.id, 'free');
    expect(await api.get(r.id)).toMatchObject({ status: 'open', acceptingFiles: false });
    expect((await api.list()).map((x) => x.id)).toEqual([r.id]);
    expect(await api.submissions(r.id)).toEqual([]);
    expect((await errorOf(await api.call('POST', '/requests', { title: 'New', collectionId: collection.id }), 402)).code).toBe('upgrade_required');
    expect((await errorOf(await api.call('PATCH', `/requests/${r.id}`, { status: 'paused' }), 402)).code).toBe('upgrade_required');
    expect((await api.get(r.id)).status).toBe('open');
  });

  it('answers 402 from the first call after a paid plan lapses, and works again once renewed', async () => {
    const { ws, api, collection } = await paidWorkspace();
    const r = await api.create({ title: 'Lapsing', collectionId: collection.id });
    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 60_000));
    expect((await api.update(r.id, { title: 'Before the end' })).acceptingFiles).toBe(true);

    server.clock.advance(61_000);
    expect((await errorOf(await api.call('PATCH', `/requests/${r.id}`, { title: 'After the end' }), 402)).code).toBe('upgrade_required');
    expect(await api.get(r.id)).toMatchObject({ title: 'Before the end', status: 'open', acceptingFiles: false });

    await server.setPlan(ws.id, 'paid', null);
    expect(await api.update(r.id, { title: 'Renewed' })).toMatchObject({ title: 'Renewed', acceptingFiles: true });
  });

  it("answers 404 for another workspace's request, whatever the call, and leaves it unchanged; a slug is not an id", async () => {
    const mine = await paidWorkspace();
    const r = await mine.api.create({ title: 'Mine', collectionId: mine.collection.id });
    const other = await paidWorkspace();
    for (const [method, path, json] of [
      ['GET', `/requests/${r.id}`, undefined],
      ['PATCH', `/requests/${r.id}`, { title: 'Stolen' }],
      ['PATCH', `/requests/${r.id}`, { status: 'closed' }],
      ['GET', `/requests/${r.id}/submissions`, undefined],
    ] as const) {
      expect((await errorOf(await other.api.call(method, path, json), 404)).code, `${method} ${path}`).toBe('not_found');
    }
    expect(await other.api.list()).toEqual([]);
    expect(await mine.api.get(r.id)).toEqual(r);
    // The public link's slug is no id in the API, not even for the owner.
    expect((await errorOf(await mine.api.call('GET', `/requests/${slugOf(r)}`), 404)).code).toBe('not_found');
  });
});
