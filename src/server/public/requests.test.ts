// @module-tag scale-out — upload bytes land in the configured storage
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CollectionFilePageSchema, FolderListSchema } from '../../contract/collections.js';
import { PublicUploadRequestSchema } from '../../contract/public-requests.js';
import { COLLECTION_UNLOCK_HEADER, PublicCollectionFilePageSchema, PublicCollectionSchema } from '../../contract/public-collections.js';
import { UnlockResponseSchema } from '../../contract/public.js';
import { SubmissionResponseSchema } from '../../contract/requests.js';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { ResolvedLinkSchema } from '../../contract/links.js';
import { download } from '../test/transfers.js';
import { collectionsApi, type FileToSend } from '../test/collections.js';
import { newId } from '../core/secrets.js';
import { collectionFiles, files, memberships, requestSubmissions, users, workspaces } from '../db/schema/index.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { sweepAbandonedUploads } from '../files/stored.js';
import { sweepUnsentSubmissions } from '../collections/requests/submissions.js';
import { fieldOf, fileList, requestsApi, slugOf, submit, uploadAll, uploaderApi } from '../test/requests.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { crcOf, randomFile, storedLength, tusUpload } from '../test/uploads.js';
import { deliverDueWebhooks } from '../webhooks/dispatcher.js';
import { answers, startReceiver, verifySignature, type Receiver } from '../test/webhook-receiver.js';
import { parseEnvelope, webhooksApi } from '../test/webhooks.js';
import { decodeQuotedPrintable } from '../test/mail.js';

/**
 * The uploader's side of an upload request through HTTP, as the page at /r/<slug> calls it: what
 * the page shows, starting a submission with its rules checked before any byte, one folder per
 * submission, cancelling and finishing, what the workspace hears (events, a real webhook receiver,
 * mail) with the uploader's text kept as text, a paused, closed or expired request, a lapsed plan,
 * a suspended workspace, the per-address limit, and the sweep of submissions never sent.
 */

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(answers.status(200, 'ok'));
  // These tests make many anonymous requests from one address; the per-address limits have a test of their own.
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000', RATE_LIMIT_SUBMISSIONS_PER_HOUR: '100000', WEBHOOKS_ALLOW_INSECURE: '1' });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The date in a submission folder's name: the clock moves on in some tests, so it is read when needed. */
const today = () => server.clock.now().toISOString().slice(0, 10);
const UNTRUSTED = '<script>alert(1)</script>';

/** A paid workspace with a collection and an upload request into it (`body` adds to the request). */
async function openRequest(body: Record<string, unknown> = {}, s: TestServer = server) {
  const ws = await s.createWorkspace({ plan: 'paid' });
  const token = await ws.createKey(['collections:read', 'collections:write', 'webhooks:read', 'webhooks:write'], 'requests');
  const collections = collectionsApi(s, token);
  const collection = await collections.create({ title: 'Client documents' });
  const api = requestsApi(s, token);
  const r = await api.create({ title: 'Send us your documents', collectionId: collection.id, ...body });
  const [row] = await s.services.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, ws.id));
  return { ws, token, collections, collection, api, r, slug: slugOf(r), page: uploaderApi(s, slugOf(r)), workspaceName: row!.name };
}

async function foldersOf(collections: ReturnType<typeof collectionsApi>, collectionId: string) {
  return FolderListSchema.parse(await collections.expectStatus(await collections.call('GET', `/collections/${collectionId}/folders`), 200)).folders;
}

async function filesOf(collections: ReturnType<typeof collectionsApi>, collectionId: string) {
  return CollectionFilePageSchema.parse(await collections.expectStatus(await collections.call('GET', `/collections/${collectionId}/files`), 200)).files;
}

/** Every file row of the collection, complete or not: what "nothing was written" is checked against. */
const fileRowsOf = (collectionId: string) =>
  server.services.db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.ownerKind, 'collection'), eq(files.ownerId, collectionId)));

/** A pull endpoint for the workspace's events, made before anything happens. Returns a reader of every event of one type so far. */
async function eventFeed(token: string) {
  const hooks = webhooksApi(server, token);
  const { webhook } = await hooks.create({ url: null, events: ['request.submitted', 'collection.file_uploaded'] });
  return async (type: string) => {
    const all = [];
    let page = await hooks.events(webhook.id, { limit: 500 });
    all.push(...page.events);
    while (page.hasMore) {
      page = await hooks.events(webhook.id, { limit: 500, cursor: page.nextCursor });
      all.push(...page.events);
    }
    return all.filter((e) => e.type === type);
  };
}

describe('the page', () => {
  it('describes the request as the uploader sees it, and nothing of the workspace behind it', async () => {
    const { page, slug, r, ws, collection, workspaceName } = await openRequest({
      title: 'Wedding photos',
      message: `Drop them here.\n${UNTRUSTED}`,
      deadline: '2036-03-13T12:00:00Z',
      maxFiles: 50,
      maxBytes: 2_000_000_000,
      allowedTypes: ['image/*', 'video/mp4'],
      requireEmail: true,
    });
    const res = await page.visit();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(PublicUploadRequestSchema.strict().parse(JSON.parse(text))).toEqual({
      title: 'Wedding photos',
      message: `Drop them here.\n${UNTRUSTED}`,
      workspaceName,
      state: 'open',
      closedReason: null,
      deadline: '2036-03-13T12:00:00.000Z',
      maxFiles: 50,
      maxBytes: 2_000_000_000,
      allowedTypes: ['image/*', 'video/mp4'],
      requireEmail: true,
    });
    for (const secret of [ws.id, ws.email, collection.id, r.id]) expect(text).not.toContain(secret);
    expect(slug).toMatch(/^[0-9A-Za-z]{22}$/);
  });

  it('answers 404 not_found in the Error shape for an unknown or malformed slug, whatever the call', async () => {
    for (const slug of ['NoSuchSlug000000000000', 'a.b', '%00', 'x'.repeat(101)]) {
      const page = uploaderApi(server, slug);
      expect((await errorOf(await page.visit(), 404)).code, slug).toBe('not_found');
      const started = page.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: [{ name: 'a.txt', size: 1 }] } });
      expect((await errorOf(await started, 404)).code, slug).toBe('not_found');
      expect((await errorOf(await page.visit('/submissions/sub_x/finish', { method: 'POST', token: 'st_x' }), 404)).code).toBe('not_found');
    }
  });

  it('answers 410 link_unavailable (suspended) while the operator has disabled the workspace, and works again after', async () => {
    const { page, ws } = await openRequest();
    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, ws.id));
    try {
      expect(await errorOf(await page.visit(), 410)).toMatchObject({ code: 'link_unavailable', details: { reason: 'suspended' } });
      const started = await page.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: [{ name: 'a.txt', size: 1 }] } });
      expect((await errorOf(started, 410)).details.reason).toBe('suspended');
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, ws.id));
    }
    expect((await page.describe()).state).toBe('open');
  });

  it('stops a submission already under way once the operator disables the workspace: its uploads, more files and finishing', async () => {
    const { page, ws, collection } = await openRequest();
    const toSend = [{ name: 'a.txt', bytes: randomFile(10) }, { name: 'b.txt', bytes: randomFile(10) }];
    const started = await page.start({ name: 'Ada' }, toSend);
    await uploadAll(server, started.files.slice(0, 1), toSend.slice(0, 1));
    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, ws.id));
    try {
      await expect(tusUpload(toSend[1]!.bytes, { endpoint: `${server.url}/files/`, token: started.files[1]!.uploadToken })).rejects.toThrow(/403/);
      expect(await storedLength(server.services, started.files[1]!.id)).toBeNull();
      const added = await page.visit(`/submissions/${started.submission.id}/files`, { method: 'POST', json: { files: [{ name: 'c.txt', size: 1 }] }, token: started.submission.token });
      expect((await errorOf(added, 410)).details.reason).toBe('suspended');
      const finished = await page.visit(`/submissions/${started.submission.id}/finish`, { method: 'POST', token: started.submission.token });
      expect((await errorOf(finished, 410)).details.reason).toBe('suspended');
      expect((await fileRowsOf(collection.id)).length).toBe(2);
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, ws.id));
    }
  });
});

describe('starting a submission', () => {
  it('always asks for a name; a typed email must be valid; an email is required only when the request says so', async () => {
    const optional = await openRequest();
    const one = [{ name: 'a.txt', size: 1 }];
    for (const [body, field] of [
      [{ files: one }, 'name'],
      [{ name: '   ', files: one }, 'name'],
      [{ name: 'Ada\u0000', files: one }, 'name'],
      [{ name: 'Ada', email: 'not an address', files: one }, 'email'],
      [{ name: 'Ada', message: 'x'.repeat(2001), files: one }, 'message'],
      [{ name: 'Ada', files: [] }, 'files'],
    ] as const) {
      const error = await errorOf(await optional.page.visit('/submissions', { method: 'POST', json: body }), 400);
      expect(error.code).toBe('invalid_request');
      expect(fieldOf(error), JSON.stringify(body)).toBe(field);
    }
    expect(await optional.api.submissions(optional.r.id)).toEqual([]);
    await optional.page.start({ name: 'Ada', email: '' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    expect((await optional.api.submissions(optional.r.id))[0]!.uploader).toEqual({ name: 'Ada', email: null });

    const required = await openRequest({ requireEmail: true });
    for (const email of [undefined, null, '']) {
      const res = await required.page.visit('/submissions', { method: 'POST', json: { name: 'Ada', email, files: one } });
      expect(fieldOf(await errorOf(res, 400)), String(email)).toBe('email');
    }
    expect(await required.api.submissions(required.r.id)).toEqual([]);
    await required.page.start({ name: 'Ada', email: ' Ada@Example.TEST ' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    expect((await required.api.submissions(required.r.id))[0]!.uploader).toEqual({ name: 'Ada', email: 'ada@example.test' });
  });

  it('refuses a file of a type the request does not take before any byte, naming files.N.mimeType, and writes nothing', async () => {
    const { page, api, r, collection, collections } = await openRequest({ allowedTypes: ['image/*', 'application/pdf'] });
    for (const [toSend, field] of [
      [
        [
          { name: 'a.pdf', size: 10, mimeType: 'application/pdf' },
          { name: 'b.jpg', size: 10, mimeType: 'image/jpeg' },
          { name: 'c.txt', size: 10, mimeType: 'text/plain' },
        ],
        'files.2.mimeType',
      ],
      [[{ name: 'untyped.bin', size: 10 }], 'files.0.mimeType'],
      [[{ name: 'imagex.bin', size: 10, mimeType: 'imagex/png' }], 'files.0.mimeType'],
    ] as const) {
      const error = await errorOf(await page.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: toSend } }), 400);
      expect(fieldOf(error)).toBe(field);
    }
    expect(await fileRowsOf(collection.id)).toEqual([]);
    expect(await foldersOf(collections, collection.id)).toEqual([]);
    expect(await api.submissions(r.id)).toEqual([]);

    // The same rule on files added later.
    const started = await page.start({ name: 'Ada' }, [{ name: 'ok.pdf', bytes: randomFile(10), mimeType: 'application/pdf' }]);
    const refused = await page.visit(`/submissions/${started.submission.id}/files`, {
      method: 'POST',
      token: started.submission.token,
      json: {
        files: [
          { name: 'photo.PNG', size: 5, mimeType: 'IMAGE/PNG' },
          { name: 'notes.txt', size: 5, mimeType: 'text/plain' },
        ],
      },
    });
    expect(fieldOf(await errorOf(refused, 400))).toBe('files.1.mimeType');
    expect(await fileRowsOf(collection.id)).toHaveLength(1);
    expect((await api.get(r.id)).fileCount).toBe(1);
  });

  it('refuses more files or more bytes than one submission may hold, counting what it holds already, before any byte', async () => {
    const { page, api, r, collection } = await openRequest({ maxFiles: 3, maxBytes: 1000 });
    const sized = (...sizes: number[]) => sizes.map((size, i) => ({ name: `f${i}.bin`, bytes: randomFile(size) }));
    const start = (toSend: FileToSend[]) => page.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: fileList(toSend) } });
    expect(fieldOf(await errorOf(await start(sized(1, 1, 1, 1)), 400))).toBe('files');
    expect(fieldOf(await errorOf(await start(sized(600, 401)), 400))).toBe('files');
    expect(await fileRowsOf(collection.id)).toEqual([]);
    expect(await api.submissions(r.id)).toEqual([]);

    const started = await page.start({ name: 'Ada' }, sized(300, 300));
    const add = (toSend: FileToSend[]) =>
      page.visit(`/submissions/${started.submission.id}/files`, { method: 'POST', token: started.submission.token, json: { files: fileList(toSend) } });
    expect(fieldOf(await errorOf(await add(sized(1, 1)), 400))).toBe('files');
    expect(fieldOf(await errorOf(await add(sized(401)), 400))).toBe('files');
    expect((await add(sized(400))).status).toBe(201);
    expect(fieldOf(await errorOf(await add(sized(0)), 400))).toBe('files');
    expect(await fileRowsOf(collection.id)).toHaveLength(3);

    // Cancelling a file makes room again.
    await page.cancel(started.submission, started.files[0]!.id);
    expect((await add(sized(300))).status).toBe(201);
    expect((await api.submissions(r.id))[0]).toMatchObject({ fileCount: 3, sizeBytes: 1000 });

    // The limits are per submission: the next uploader has the whole allowance.
    await page.start({ name: 'Grace' }, sized(500, 500));
  });

  it('gives each submission a folder of its own under the request’s, named from the uploader and the date, keeping relative paths beneath it', async () => {
    const { page, api, r, collection, collections } = await openRequest();
    const created = await collections.call('POST', `/collections/${collection.id}/folders`, { name: 'Incoming', parentId: null });
    const incoming = ((await collections.expectStatus(created, 201)) as { folder: { id: string } }).folder;
    await api.update(r.id, { folderId: incoming.id });

    const top = randomFile(1500);
    const scan = randomFile(700);
    const first = await submit(server, slugOf(r), { name: 'Ada Lovelace', email: 'ada@example.test' }, [
      { name: 'letter.pdf', bytes: top, mimeType: 'application/pdf' },
      { name: 'scan.pdf', bytes: scan, mimeType: 'application/pdf', path: 'Scans/2026' },
    ]);
    expect(first.progress).toEqual({
      id: first.started.submission.id,
      status: 'complete',
      fileCount: 2,
      sizeBytes: 2200,
      folderName: `Ada Lovelace ${today()}`,
    });
    expect(first.started.submission.folderName).toBe(`Ada Lovelace ${today()}`);
    // The same name again (in any case) gets a free one; a slash in a name makes no subfolder.
    const second = await page.start({ name: 'Ada Lovelace' }, [{ name: 'again.txt', bytes: Buffer.from('again') }]);
    const third = await page.start({ name: 'ADA LOVELACE' }, [{ name: 'shout.txt', bytes: Buffer.from('shout') }]);
    const slashed = await page.start({ name: 'AC/DC' }, [{ name: 'riff.txt', bytes: Buffer.from('riff') }]);
    const day = today();
    expect([second, third, slashed].map((s) => s.submission.folderName)).toEqual([`Ada Lovelace ${day} (2)`, `ADA LOVELACE ${day} (3)`, `AC-DC ${day}`]);
    server.clock.advance(DAY);
    const tomorrow = await page.start({ name: 'Ada Lovelace' }, [{ name: 'late.txt', bytes: Buffer.from('late') }]);
    expect(tomorrow.submission.folderName).toBe(`Ada Lovelace ${today()}`);

    const folders = await foldersOf(collections, collection.id);
    expect(folders.map((f) => f.path).sort()).toEqual(
      [
        'Incoming',
        `Incoming/AC-DC ${day}`,
        `Incoming/Ada Lovelace ${day}`,
        `Incoming/Ada Lovelace ${day}/Scans`,
        `Incoming/Ada Lovelace ${day}/Scans/2026`,
        `Incoming/Ada Lovelace ${day} (2)`,
        `Incoming/ADA LOVELACE ${day} (3)`,
        `Incoming/Ada Lovelace ${today()}`,
      ].sort(),
    );
    const folderId = (path: string) => folders.find((f) => f.path === path)!.id;

    // The files are the collection's, in those folders, with the bytes sent.
    const listed = await filesOf(collections, collection.id);
    expect(listed.slice(0, 2).map((f) => [f.id, f.name, f.folderId, f.sizeBytes, f.crc32, f.state])).toEqual([
      [first.fileIds[0], 'letter.pdf', folderId(`Incoming/Ada Lovelace ${day}`), 1500, crcOf(top), 'complete'],
      [first.fileIds[1], 'scan.pdf', folderId(`Incoming/Ada Lovelace ${day}/Scans/2026`), 700, crcOf(scan), 'complete'],
    ]);
    // Marked as brought by an upload request, with who sent them.
    const rows = await server.services.db.select().from(collectionFiles).where(eq(collectionFiles.collectionId, collection.id));
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((f) => f.source))).toEqual(new Set(['file_request']));
    const firstRows = rows.filter((f) => first.fileIds.includes(f.fileId));
    expect(firstRows.map((f) => [f.uploaderName, f.uploaderEmail, f.submissionId])).toEqual([
      ['Ada Lovelace', 'ada@example.test', first.started.submission.id],
      ['Ada Lovelace', 'ada@example.test', first.started.submission.id],
    ]);
    expect((await api.submissions(r.id)).find((s) => s.id === first.started.submission.id)!.folderId).toBe(folderId(`Incoming/Ada Lovelace ${day}`));
  });

  it('goes to the collection’s top level when the request names no folder, or once its folder was deleted', async () => {
    const { api, r, collections, collection } = await openRequest();
    const sent = await submit(server, slugOf(r), { name: 'Grace' }, [{ name: 'a.txt', bytes: Buffer.from('a'), path: 'Deep/Er' }]);
    expect((await foldersOf(collections, collection.id)).map((f) => [f.path, f.depth])).toEqual([
      [`Grace ${today()}`, 0],
      [`Grace ${today()}/Deep`, 1],
      [`Grace ${today()}/Deep/Er`, 2],
    ]);
    expect((await filesOf(collections, collection.id)).map((f) => f.id)).toEqual(sent.fileIds);

    const created = await collections.call('POST', `/collections/${collection.id}/folders`, { name: 'Inbox', parentId: null });
    const inbox = ((await collections.expectStatus(created, 201)) as { folder: { id: string } }).folder;
    await api.update(r.id, { folderId: inbox.id });
    expect((await collections.call('DELETE', `/collections/${collection.id}/folders/${inbox.id}`)).status).toBe(200);
    expect(await api.get(r.id)).toMatchObject({ folderId: null, status: 'open', acceptingFiles: true });
    const after = await submit(server, slugOf(r), { name: 'Hopper' }, [{ name: 'b.txt', bytes: Buffer.from('b') }]);
    expect(after.progress).toMatchObject({ status: 'complete', folderName: `Hopper ${today()}` });
    expect((await foldersOf(collections, collection.id)).find((f) => f.name === `Hopper ${today()}`)).toMatchObject({ depth: 0, parentId: null });
  });
});

describe('a submission’s token', () => {
  it('is required to add, cancel or finish: 401 without it or with a wrong one, 404 for another request’s submission', async () => {
    const { page, api, r } = await openRequest();
    const other = await openRequest();
    const started = await page.start({ name: 'Ada' }, [{ name: 'a.txt', bytes: Buffer.from('abc') }]);
    const theirs = await other.page.start({ name: 'Eve' }, [{ name: 'e.txt', bytes: Buffer.from('e') }]);
    const s = started.submission;
    const calls: [string, string, unknown][] = [
      ['POST', `/submissions/${s.id}/files`, { files: [{ name: 'b.txt', size: 1 }] }],
      ['DELETE', `/submissions/${s.id}/files/${started.files[0]!.id}`, undefined],
      ['POST', `/submissions/${s.id}/finish`, undefined],
    ];
    for (const [method, path, json] of calls) {
      expect((await errorOf(await page.visit(path, { method, json }), 401)).code, `${method} ${path}`).toBe('unauthorized');
      expect((await errorOf(await page.visit(path, { method, json, token: theirs.submission.token }), 401)).code).toBe('unauthorized');
      expect((await errorOf(await page.visit(path, { method, json, token: `${s.token}x` }), 401)).code).toBe('unauthorized');
      // Another request's submission, even with its own token, is not found through this link.
      const theirsPath = path.replace(s.id, theirs.submission.id);
      expect((await errorOf(await page.visit(theirsPath, { method, json, token: theirs.submission.token }), 404)).code).toBe('not_found');
    }
    // Nothing happened to either: one file each, unfinished.
    expect((await api.submissions(r.id)).map((x) => [x.status, x.fileCount])).toEqual([['uploading', 1]]);
    expect((await other.api.submissions(other.r.id)).map((x) => [x.status, x.fileCount])).toEqual([['uploading', 1]]);
  });
});

describe('cancelling and finishing', () => {
  it('cancels an unfinished file leaving nothing behind: the row, the stored bytes, and the submission with its folder when it was the only file', async () => {
    const { page, api, r, collection, collections } = await openRequest();
    const bytes = randomFile(5000);
    const started = await page.start({ name: 'Ada' }, [{ name: 'big.bin', bytes }]);
    const [target] = started.files;
    await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: target!.uploadToken, chunkSize: 1000, stopAfterChunk: () => true });
    expect(await storedLength(server.services, target!.id)).toBeGreaterThan(0);
    expect((await foldersOf(collections, collection.id)).map((f) => f.name)).toEqual([`Ada ${today()}`]);

    expect(await page.cancel(started.submission, target!.id)).toEqual({ deleted: true });
    expect(await fileRowsOf(collection.id)).toEqual([]);
    expect(await storedLength(server.services, target!.id)).toBeNull();
    expect(await server.services.storage.size(target!.id)).toBeNull();
    expect(await foldersOf(collections, collection.id)).toEqual([]);
    expect(await api.submissions(r.id)).toEqual([]);
    expect(await api.get(r.id)).toMatchObject({ submissionCount: 0, fileCount: 0, sizeBytes: 0, lastSubmissionAt: null });
    // The submission is gone: its token opens nothing.
    expect(
      (await errorOf(await page.visit(`/submissions/${started.submission.id}/finish`, { method: 'POST', token: started.submission.token }), 404)).code,
    ).toBe('not_found');
  });

  it('keeps the submission and its folder when other files remain, and completes it if the cancelled file was the last one missing', async () => {
    const { page, api, r, token, collection, collections } = await openRequest();
    const events = await eventFeed(token);
    const kept = randomFile(100);
    const started = await page.start({ name: 'Ada' }, [
      { name: 'kept.bin', bytes: kept },
      { name: 'dropped.bin', bytes: randomFile(100), path: 'Sub' },
    ]);
    await uploadAll(server, started.files.slice(0, 1), [{ name: 'kept.bin', bytes: kept }]);
    expect((await page.finish(started.submission)).status).toBe('uploading');

    await page.cancel(started.submission, started.files[1]!.id);
    const [s] = await api.submissions(r.id);
    expect(s).toMatchObject({ status: 'complete', fileCount: 1, sizeBytes: 100, completedAt: server.clock.now().toISOString() });
    expect(s!.files.map((f) => f.name)).toEqual(['kept.bin']);
    expect((await foldersOf(collections, collection.id)).map((f) => f.path)).toEqual([`Ada ${today()}`, `Ada ${today()}/Sub`]);
    const submitted = await events('request.submitted');
    expect(submitted).toHaveLength(1);
    expect((submitted[0]!.data.files as { name: string }[]).map((f) => f.name)).toEqual(['kept.bin']);
  });

  it('refuses to cancel a file that has arrived (409 conflict) or one that is not the submission’s (404)', async () => {
    const { page, collection } = await openRequest();
    const other = await openRequest();
    const bytes = randomFile(64);
    const started = await page.start({ name: 'Ada' }, [{ name: 'done.bin', bytes }]);
    const theirs = await other.page.start({ name: 'Eve' }, [{ name: 'e.bin', bytes: randomFile(1) }]);
    await uploadAll(server, started.files, [{ name: 'done.bin', bytes }]);
    const s = started.submission;
    const arrived = await page.visit(`/submissions/${s.id}/files/${started.files[0]!.id}`, { method: 'DELETE', token: s.token });
    expect((await errorOf(arrived, 409)).code).toBe('conflict');
    for (const fileId of [theirs.files[0]!.id, 'fi_doesnotexist0000000000']) {
      expect((await errorOf(await page.visit(`/submissions/${s.id}/files/${fileId}`, { method: 'DELETE', token: s.token }), 404)).code).toBe('not_found');
    }
    expect(await fileRowsOf(collection.id)).toHaveLength(1);
    expect(await fileRowsOf(other.collection.id)).toHaveLength(1);
  });

  it('completes at once when every file has arrived by "Send", and "Send" again changes nothing', async () => {
    const { page, api, r, token } = await openRequest();
    const events = await eventFeed(token);
    const toSend = [
      { name: 'a.bin', bytes: randomFile(1000) },
      { name: 'b.bin', bytes: randomFile(24) },
    ];
    const started = await page.start({ name: 'Ada' }, toSend);
    await uploadAll(server, started.files, toSend);
    expect((await api.submissions(r.id))[0]!.status).toBe('uploading');
    const done = await page.finish(started.submission);
    expect(done).toEqual({ id: started.submission.id, status: 'complete', fileCount: 2, sizeBytes: 1024, folderName: `Ada ${today()}` });
    expect(await page.finish(started.submission)).toEqual(done);
    expect(await events('request.submitted')).toHaveLength(1);
    // A sent submission takes no more files.
    const more = await page.visit(`/submissions/${started.submission.id}/files`, {
      method: 'POST',
      token: started.submission.token,
      json: { files: [{ name: 'c.bin', size: 1 }] },
    });
    expect((await errorOf(more, 409)).details.reason).toBe('finished');
  });

  it('stays uploading when "Send" comes before the last file has landed, and completes when tus delivers it', async () => {
    const { page, api, r, token } = await openRequest();
    const events = await eventFeed(token);
    const toSend = [
      { name: 'first.bin', bytes: randomFile(300) },
      { name: 'last.bin', bytes: randomFile(70_000) },
    ];
    const started = await page.start({ name: 'Ada' }, toSend);
    await uploadAll(server, started.files.slice(0, 1), toSend.slice(0, 1));
    expect(await page.finish(started.submission)).toMatchObject({ status: 'uploading', fileCount: 2 });
    expect((await api.submissions(r.id))[0]).toMatchObject({ status: 'uploading', completedAt: null });
    expect(await events('request.submitted')).toEqual([]);

    server.clock.advance(60_000);
    await uploadAll(server, started.files.slice(1), toSend.slice(1));
    expect((await api.submissions(r.id))[0]).toMatchObject({ status: 'complete', completedAt: server.clock.now().toISOString() });
    expect(await events('request.submitted')).toHaveLength(1);
    expect(await page.finish(started.submission)).toMatchObject({ status: 'complete', fileCount: 2, sizeBytes: 70_300 });
  });
});

interface ParsedMail {
  /** The header block as sent, folded lines and all. */
  rawHeaders: string;
  /** Unfolded, by lower-case name. */
  headers: Map<string, string>;
  text: string;
  html: string;
}

function headerMap(block: string): Map<string, string> {
  const unfolded = block.replace(/\r\n[ \t]+/g, ' ');
  return new Map(unfolded.split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
}

/** A multipart/alternative message as the file mailer keeps it: its headers and its two parts, decoded. */
function parseMail(raw: string): ParsedMail {
  const split = raw.indexOf('\r\n\r\n');
  const rawHeaders = raw.slice(0, split);
  const headers = headerMap(rawHeaders);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  if (!boundary) throw new Error(`not multipart: ${headers.get('content-type')}`);
  const parts = raw
    .slice(split + 4)
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const at = part.indexOf('\r\n\r\n');
      const h = headerMap(part.slice(0, at).replace(/^\r\n/, ''));
      const body = part.slice(at + 4);
      const encoding = h.get('content-transfer-encoding');
      const decoded =
        encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
      return { type: h.get('content-type') ?? '', body: decoded.replace(/\r\n/g, '\n') };
    });
  return {
    rawHeaders,
    headers,
    text: parts.find((p) => p.type.startsWith('text/plain'))?.body ?? '',
    html: parts.find((p) => p.type.startsWith('text/html'))?.body ?? '',
  };
}

/** The request.submitted mails of the workspace, by recipient. */
async function submissionMails(workspaceId: string) {
  const entries = (await listOutbox(server.dataDir, workspaceId, 1000)).filter((m) => m.tag === 'request.submitted');
  return Promise.all(entries.map(async (e) => ({ to: e.to, mail: parseMail((await readOutboxMessage(server.dataDir, workspaceId, e.id))!.toString('utf8')) })));
}

describe('what the workspace hears', () => {
  it('emits request.submitted once per submission with its files, and collection.file_uploaded per file with source file_request and the uploader (who added it, too)', async () => {
    const { page, r, token, collection, collections } = await openRequest({ title: 'Signed contracts' });
    const events = await eventFeed(token);
    const a = randomFile(1234);
    const b = randomFile(10);
    const name = 'Zoë "Z" <zoe@evil.test>';
    const message = `Here you go!\n${UNTRUSTED} & <b>thanks</b>`;
    const first = await submit(server, slugOf(r), { name, email: 'zoe@example.test', message }, [
      { name: 'contract.pdf', bytes: a, mimeType: 'application/pdf' },
      { name: '<img src=x onerror=alert(1)>.txt', bytes: b, mimeType: 'text/plain', path: 'Extras' },
    ]);
    // "Send" again and a HEAD on a finished upload announce nothing twice.
    await page.finish(first.started.submission);
    await fetch(`${server.url}/files/${first.fileIds[0]}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    server.clock.advance(1000);
    const second = await submit(server, slugOf(r), { name: 'Grace' }, [{ name: 'solo.bin', bytes: randomFile(5) }]);

    const folders = await foldersOf(collections, collection.id);
    const folderOf = (path: string) => folders.find((f) => f.path === path)!.id;
    const submitted = await events('request.submitted');
    expect(submitted).toHaveLength(2);
    expect(submitted[0]!.data).toEqual({
      request: { id: r.id, title: 'Signed contracts', collectionId: collection.id },
      submission: { id: first.started.submission.id, uploader: { name, email: 'zoe@example.test' }, message, fileCount: 2, sizeBytes: 1244 },
      files: [
        { id: first.fileIds[0], name: 'contract.pdf', size: 1234, folderId: folderOf(`${name} ${today()}`) },
        { id: first.fileIds[1], name: '<img src=x onerror=alert(1)>.txt', size: 10, folderId: folderOf(`${name} ${today()}/Extras`) },
      ],
    });
    expect(submitted[1]!.data).toMatchObject({
      submission: { id: second.started.submission.id, uploader: { name: 'Grace', email: null }, message: '', fileCount: 1, sizeBytes: 5 },
    });

    // One each, whatever order files that landed in the same instant are numbered in.
    const uploaded = await events('collection.file_uploaded');
    expect(uploaded).toHaveLength(3);
    const uploadedOf = (fileId: string | undefined) => uploaded.filter((e) => (e.data.file as { id: string }).id === fileId).map((e) => e.data);
    expect(uploadedOf(first.fileIds[0])).toEqual([
      {
        collection: { id: collection.id, title: 'Client documents' },
        file: {
          id: first.fileIds[0],
          name: 'contract.pdf',
          size: 1234,
          mimeType: 'application/pdf',
          crc32: crcOf(a),
          folderId: folderOf(`${name} ${today()}`),
        },
        source: 'file_request',
        uploader: { name, email: 'zoe@example.test' },
        addedBy: { kind: 'uploader', id: null, name, email: 'zoe@example.test' },
      },
    ]);
    expect(uploadedOf(first.fileIds[1])).toEqual([
      {
        collection: { id: collection.id, title: 'Client documents' },
        file: {
          id: first.fileIds[1],
          name: '<img src=x onerror=alert(1)>.txt',
          size: 10,
          mimeType: 'text/plain',
          crc32: crcOf(b),
          folderId: folderOf(`${name} ${today()}/Extras`),
        },
        source: 'file_request',
        uploader: { name, email: 'zoe@example.test' },
        addedBy: { kind: 'uploader', id: null, name, email: 'zoe@example.test' },
      },
    ]);
    expect(uploadedOf(second.fileIds[0])).toEqual([expect.objectContaining({ source: 'file_request', uploader: { name: 'Grace', email: null } })]);
  });

  it('completes once when many last files land together, listing at most 500 of them in request.submitted and the submission', async () => {
    const { ws, page, api, r, token } = await openRequest({ maxFiles: 1000 });
    const events = await eventFeed(token);
    const empties = Array.from({ length: 501 }, (_, i) => ({ name: `page-${String(i).padStart(3, '0')}.txt`, bytes: Buffer.alloc(0) }));
    const started = await page.start({ name: 'Archivist' }, empties);
    expect(await page.finish(started.submission)).toMatchObject({ status: 'uploading', fileCount: 501 });
    // An empty file is complete as soon as its upload is created: 25 at a time race to be the last.
    for (let i = 0; i < started.files.length; i += 25) {
      await Promise.all(
        started.files.slice(i, i + 25).map(async (f) => {
          const res = await fetch(`${server.url}/files/`, {
            method: 'POST',
            headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': f.uploadToken, 'upload-length': '0' },
          });
          expect(res.status).toBe(201);
        }),
      );
    }

    const submitted = await events('request.submitted');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]!.data.submission).toMatchObject({ fileCount: 501, sizeBytes: 0 });
    const listed = submitted[0]!.data.files as { name: string }[];
    expect(listed).toHaveLength(500);
    expect([listed[0]!.name, listed[499]!.name]).toEqual(['page-000.txt', 'page-499.txt']);
    const [s] = await api.submissions(r.id);
    expect(s).toMatchObject({ fileCount: 501, status: 'complete' });
    expect(s!.files).toHaveLength(500);
    expect(await events('collection.file_uploaded')).toHaveLength(501);
    // The mail lists the first files and says how many more there are.
    await vi.waitFor(async () => expect(await submissionMails(ws.id)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect((await submissionMails(ws.id))[0]!.mail.text).toContain('and 481 more');
  }, 180_000); // 501 uploads and their completion: 55 s alone on S3 (s3rver), more beside two other files.

  it('delivers request.submitted to a real receiver once, signed, with the uploader’s text intact', async () => {
    const { r, token } = await openRequest();
    const hooks = webhooksApi(server, token);
    const { secret } = await hooks.create({ url: `${receiver.url}/submitted`, events: ['request.submitted'] });
    const message = `Line one\r\nLine two ${UNTRUSTED} "quoted" \u00e9\u4e2d`;
    const sent = await submit(server, slugOf(r), { name: `Mallory ${UNTRUSTED}`, email: 'mallory@example.test', message }, [
      { name: 'payload.bin', bytes: randomFile(42) },
    ]);

    expect(await deliverDueWebhooks(server.services)).toBe(1);
    const received = receiver.at('/submitted');
    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(verifySignature(secret, req.headers['service-signature'], req.rawBody, server.clock.now())).toBe(true);
    const envelope = parseEnvelope(req.rawBody);
    expect(envelope.type).toBe('request.submitted');
    expect(envelope.data).toMatchObject({
      request: { id: r.id },
      submission: { id: sent.started.submission.id, uploader: { name: `Mallory ${UNTRUSTED}`, email: 'mallory@example.test' }, message: message.trim() },
      files: [{ id: sent.fileIds[0], name: 'payload.bin', size: 42 }],
    });
    // The raw bytes carry the text as JSON text, not as markup to be escaped again or stripped.
    expect(req.rawBody.toString('utf8')).toContain(JSON.stringify(`Mallory ${UNTRUSTED}`));
    expect(await deliverDueWebhooks(server.services)).toBe(0);
    expect(receiver.at('/submitted')).toHaveLength(1);
  });

  it('mails every person of the workspace once: the uploader’s text escaped, a one-line subject, a link to the folder, Reply-To the uploader', async () => {
    const { ws, r, collection, collections } = await openRequest({ title: 'Tax documents' });
    const teammate = `teammate-${ws.id.slice(-6).toLowerCase()}@example.test`;
    const teammateId = newId('usr');
    await server.services.db
      .insert(users)
      .values({ id: teammateId, email: teammate, passwordHash: 'not a hash', createdAt: server.clock.now() });
    await server.services.db.insert(memberships).values({ workspaceId: ws.id, userId: teammateId, role: 'member', createdAt: server.clock.now() });
    const name = `Zoë ${UNTRUSTED}`;
    const message = `Please find attached.\n${UNTRUSTED}`;
    const sent = await submit(server, slugOf(r), { name, email: 'zoe@example.test', message }, [
      { name: 'w2.pdf', bytes: randomFile(2000), mimeType: 'application/pdf' },
    ]);

    await vi.waitFor(async () => expect(await submissionMails(ws.id)).toHaveLength(2), { timeout: 10_000, interval: 50 });
    const mails = await submissionMails(ws.id);
    expect(mails.map((m) => m.to).sort()).toEqual([ws.email, teammate].sort());
    const folderId = (await foldersOf(collections, collection.id))[0]!.id;
    // A slash typed in the name makes no subfolder.
    expect(sent.progress.folderName).toBe(`Zoë <script>alert(1)<-script> ${today()}`);
    for (const { mail } of mails) {
      const subject = mail.headers.get('subject')!;
      // One header line (folded at most), never a line of its own for anything typed.
      expect(mail.rawHeaders.split('\r\n').every((line) => /^[A-Za-z-]+: /.test(line) || /^[ \t]/.test(line))).toBe(true);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(mail.rawHeaders).not.toContain('<script>');
      expect(mail.headers.get('reply-to')).toBe('zoe@example.test');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail.html).not.toContain('<script>alert');
      expect(mail.html).toContain(`${server.services.config.PUBLIC_URL}/collections/${collection.id}?folder=${folderId}`);
      expect(mail.text).toContain(message);
      expect(mail.text).toContain('w2.pdf');
    }
    // Nobody is mailed twice for it.
    await uploaderApi(server, slugOf(r)).finish(sent.started.submission);
    expect(await submissionMails(ws.id)).toHaveLength(2);
  });

  it('sets no Reply-To when the uploader gave no address', async () => {
    const { ws, r } = await openRequest();
    await submit(server, slugOf(r), { name: 'Anonymous' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    await vi.waitFor(async () => expect(await submissionMails(ws.id)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const { mail } = (await submissionMails(ws.id))[0]!;
    expect(mail.headers.has('reply-to')).toBe(false);
    expect(mail.headers.get('subject')).toContain('Anonymous');
  });
});

describe('when the request takes no new files', () => {
  it('paused: refuses a new submission and new files with 409 paused, while uploads already registered finish and the submission completes', async () => {
    const { page: p, api, r, token } = await openRequest();
    const events = await eventFeed(token);
    const underWay = randomFile(5000);
    const notBegun = randomFile(300);
    const toSend = [
      { name: 'under-way.bin', bytes: underWay },
      { name: 'not-begun.bin', bytes: notBegun },
    ];
    const started = await p.start({ name: 'Ada' }, toSend);
    const first = await tusUpload(underWay, {
      endpoint: `${server.url}/files/`,
      token: started.files[0]!.uploadToken,
      chunkSize: 1000,
      stopAfterChunk: () => true,
    });
    expect(first.stopped).toBe(true);

    await api.update(r.id, { status: 'paused' });
    expect(await p.describe()).toMatchObject({ state: 'paused', closedReason: null });
    const fresh = await p.visit('/submissions', { method: 'POST', json: { name: 'Grace', files: [{ name: 'g.txt', size: 1 }] } });
    expect(await errorOf(fresh, 409)).toMatchObject({ code: 'conflict', details: { reason: 'paused' } });
    const more = await p.visit(`/submissions/${started.submission.id}/files`, {
      method: 'POST',
      token: started.submission.token,
      json: { files: [{ name: 'c.txt', size: 1 }] },
    });
    expect((await errorOf(more, 409)).details.reason).toBe('paused');

    // What was registered before the pause may finish.
    await tusUpload(underWay, { uploadUrl: first.url, token: started.files[0]!.uploadToken, chunkSize: 1000 });
    await tusUpload(notBegun, { endpoint: `${server.url}/files/`, token: started.files[1]!.uploadToken });
    expect(await p.finish(started.submission)).toMatchObject({ status: 'complete', fileCount: 2, sizeBytes: 5300 });
    const [s] = await api.submissions(r.id);
    expect(s!.files.map((f) => [f.name, f.state])).toEqual([
      ['under-way.bin', 'complete'],
      ['not-begun.bin', 'complete'],
    ]);
    expect(await events('request.submitted')).toHaveLength(1);

    // Resumed, it takes new submissions again.
    await api.update(r.id, { status: 'open' });
    expect((await p.describe()).state).toBe('open');
    await p.start({ name: 'Grace' }, [{ name: 'g.txt', bytes: Buffer.from('g') }]);
  });

  it('closed: the page says closed, and new submissions or files are refused with 409 closed, while "Send" still works', async () => {
    const { page: p, api, r } = await openRequest();
    const bytes = randomFile(10);
    const started = await p.start({ name: 'Ada' }, [{ name: 'a.bin', bytes }]);
    await uploadAll(server, started.files, [{ name: 'a.bin', bytes }]);
    await api.update(r.id, { status: 'closed' });

    expect(await p.describe()).toMatchObject({ state: 'closed', closedReason: 'closed' });
    const fresh = await p.visit('/submissions', { method: 'POST', json: { name: 'Grace', files: [{ name: 'g.txt', size: 1 }] } });
    expect(await errorOf(fresh, 409)).toMatchObject({ code: 'conflict', details: { reason: 'closed' } });
    const more = await p.visit(`/submissions/${started.submission.id}/files`, {
      method: 'POST',
      token: started.submission.token,
      json: { files: [{ name: 'c.txt', size: 1 }] },
    });
    expect((await errorOf(more, 409)).details.reason).toBe('closed');
    expect((await p.finish(started.submission)).status).toBe('complete');
  });

  it('past its deadline: closed with reason deadline once the clock passes it', async () => {
    const { page: p, api, r } = await openRequest({ deadline: new Date(server.clock.now().getTime() + HOUR).toISOString() });
    expect(await p.describe()).toMatchObject({ state: 'open', closedReason: null });
    await p.start({ name: 'Early' }, [{ name: 'e.txt', bytes: Buffer.from('e') }]);

    server.clock.advance(2 * HOUR);
    expect(await p.describe()).toMatchObject({ state: 'closed', closedReason: 'deadline' });
    const late = await p.visit('/submissions', { method: 'POST', json: { name: 'Late', files: [{ name: 'l.txt', size: 1 }] } });
    expect(await errorOf(late, 409)).toMatchObject({ code: 'conflict', details: { reason: 'deadline' } });
    expect(await api.get(r.id)).toMatchObject({ status: 'open', acceptingFiles: false, submissionCount: 1 });

    // A new deadline opens it again.
    await api.update(r.id, { deadline: new Date(server.clock.now().getTime() + HOUR).toISOString() });
    expect((await p.describe()).state).toBe('open');
  });

  it('paused while the workspace’s paid plan has lapsed, open again after renewal', async () => {
    const { page: p, ws, api, r } = await openRequest();
    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 60_000));
    expect((await p.describe()).state).toBe('open');
    server.clock.advance(61_000);
    expect(await p.describe()).toMatchObject({ state: 'paused', closedReason: null });
    const refused = await p.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: [{ name: 'a.txt', size: 1 }] } });
    expect(await errorOf(refused, 409)).toMatchObject({ code: 'conflict', details: { reason: 'paused' } });
    expect(await api.submissions(r.id)).toEqual([]);

    await server.setPlan(ws.id, 'paid', null);
    expect((await p.describe()).state).toBe('open');
    await p.start({ name: 'Ada' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
  });
});

describe('the per-address limit on new submissions', () => {
  it('refuses the submission past the hourly limit with 429 rate_limited and Retry-After; refused calls do not count', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SUBMISSIONS_PER_HOUR: '2', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
    try {
      const { page: p, api, r } = await openRequest({ allowedTypes: ['application/pdf'] }, limited);
      const start = (json: unknown) => p.visit('/submissions', { method: 'POST', json });
      const pdf = [{ name: 'a.pdf', size: 1, mimeType: 'application/pdf' }];
      // Refused for their content: checked before the address is charged.
      expect((await start({ name: 'Ada', files: [{ name: 'a.txt', size: 1, mimeType: 'text/plain' }] })).status).toBe(400);
      expect((await start({ files: pdf })).status).toBe(400);
      expect((await start({ name: 'Ada', files: pdf })).status).toBe(201);
      limited.clock.advance(1000);
      expect((await start({ name: 'Grace', files: pdf })).status).toBe(201);

      const third = await start({ name: 'Eve', files: pdf });
      const error = await errorOf(third.clone(), 429);
      expect(error.code).toBe('rate_limited');
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect((await api.submissions(r.id)).map((s) => s.uploader.name)).toEqual(['Grace', 'Ada']);

      limited.clock.advance(HOUR + 1000);
      expect((await start({ name: 'Eve', files: pdf })).status).toBe(201);
    } finally {
      await limited.stop();
    }
  });
});

describe('files not sent yet', () => {
  /** The collection's public page as a visitor reads it: the page, every file, and the links. */
  async function publicView(slug: string) {
    const visit = (path = '') => server.fetch(`/api/public/collections/${slug}${path}`);
    const page = PublicCollectionSchema.parse(await (await visit()).json());
    const listed = PublicCollectionFilePageSchema.parse(await (await visit('/files?limit=100')).json());
    const links = DownloadLinksSchema.parse(await (await visit('/download-links')).json());
    return { visit, page, listed, links };
  }

  it('keeps them out of every visitor’s page, count, folder, zip and download link, and the owner’s links, while listing them to the owner marked unsent', async () => {
    const { page: p, api, r, token, collection, collections } = await openRequest();
    await collections.expectStatus(await collections.call('PATCH', `/collections/${collection.id}`, { visibility: 'public' }), 200);
    const events = await eventFeed(token);
    const [ownFile] = await collections.upload(collection.id, [{ name: 'brief.txt', bytes: Buffer.from('the brief') }]);
    const before = await publicView(collection.slug);

    const toSend: FileToSend[] = [
      { name: 'one.bin', bytes: randomFile(100) },
      { name: 'two.bin', bytes: randomFile(200) },
      { name: 'three.bin', bytes: randomFile(300), path: 'Inner' },
    ];
    const started = await p.start({ name: 'Left without sending' }, toSend);
    await uploadAll(server, started.files, toSend);
    const sentIds = started.files.map((f) => f.id);

    // The owner sees the files, marked, and the submission's folders.
    const owned = await filesOf(collections, collection.id);
    expect(owned.map((f) => [f.name, f.unsent])).toEqual([
      ['brief.txt', false],
      ['one.bin', true],
      ['two.bin', true],
      ['three.bin', true],
    ]);
    const folders = await foldersOf(collections, collection.id);
    const submissionFolder = folders.find((f) => f.name === `Left without sending ${today()}`)!;
    const inner = folders.find((f) => f.path === `${submissionFolder.path}/Inner`)!;
    expect(inner).toBeDefined();
    expect(await api.submissions(r.id)).toMatchObject([{ id: started.submission.id, sent: false, fileCount: 3, status: 'uploading' }]);

    // A visitor sees the collection exactly as before: no file, folder, count or byte of it.
    const after = await publicView(collection.slug);
    expect(after.page).toEqual(before.page);
    expect(after.page).toMatchObject({ fileCount: 1, totalBytes: 9, folders: [] });
    expect(after.listed.files.map((f) => f.id)).toEqual([ownFile]);
    expect(after.links.files.map((f) => f.fileId)).toEqual([ownFile]);
    expect(after.links.zip.sizeBytes).toBe(before.links.zip.sizeBytes);
    for (const folder of [submissionFolder, inner]) {
      expect((await errorOf(await after.visit(`/files?folderId=${folder.id}`), 404)).code).toBe('not_found');
      expect((await errorOf(await after.visit(`/download-links?folderId=${folder.id}`), 404)).code).toBe('not_found');
    }
    const zip = await download(server, after.links.zip.url);
    expect(zip.body.length).toBe(before.links.zip.sizeBytes);
    for (const id of sentIds) expect(zip.body.includes(Buffer.from(toSend[sentIds.indexOf(id)]!.name))).toBe(false);

    // The owner's links and /links/resolve hold none of them either.
    const ownerLinks = DownloadLinksSchema.parse(await collections.expectStatus(await collections.call('GET', `/collections/${collection.id}/download-links`), 200));
    expect(ownerLinks.files.map((f) => f.fileId)).toEqual([ownFile]);
    const resolved = ResolvedLinkSchema.parse(
      await collections.expectStatus(await collections.call('POST', '/links/resolve', { url: `${server.services.config.PUBLIC_URL}/c/${collection.slug}` }), 200),
    );
    expect(resolved.files.map((f) => f.fileId)).toEqual([ownFile]);
    // Nor can they be a cover.
    const cover = await collections.call('PATCH', `/collections/${collection.id}`, { coverFileId: sentIds[0] });
    expect(fieldOf(await errorOf(cover, 400))).toBe('coverFileId');

    // Nothing was announced for them yet.
    expect((await events('collection.file_uploaded')).map((e) => (e.data.file as { id: string }).id)).toEqual([ownFile]);
    expect(await events('request.submitted')).toEqual([]);

    // "Send": now they are the collection's, for everyone, and announced once each.
    expect((await p.finish(started.submission)).status).toBe('complete');
    const published = await publicView(collection.slug);
    expect(published.page).toMatchObject({ fileCount: 4, totalBytes: 609 });
    expect(published.page.folders.map((f) => f.id)).toEqual([submissionFolder.id, inner.id]);
    expect(published.listed.files.map((f) => f.id)).toEqual([ownFile, ...sentIds]);
    expect(published.links.files.map((f) => f.fileId)).toEqual([ownFile, ...sentIds]);
    expect((await filesOf(collections, collection.id)).every((f) => !f.unsent)).toBe(true);
    expect((await events('collection.file_uploaded')).map((e) => (e.data.file as { id: string }).id).sort()).toEqual([ownFile, ...sentIds].sort());
    expect(await events('request.submitted')).toHaveLength(1);
  });

  it('keeps them from a visitor who unlocked a password-protected collection too, until sent', async () => {
    const { page: p, collection, collections } = await openRequest();
    await collections.expectStatus(await collections.call('PATCH', `/collections/${collection.id}`, { visibility: 'password', password: 'open sesame' }), 200);
    const toSend: FileToSend[] = [{ name: 'secret.bin', bytes: randomFile(40) }];
    const started = await p.start({ name: 'Unsent' }, toSend);
    await uploadAll(server, started.files, toSend);
    const visit = (path: string, unlockToken?: string) =>
      server.fetch(`/api/public/collections/${collection.slug}${path}`, {
        method: path === '/unlock' ? 'POST' : 'GET',
        json: path === '/unlock' ? { password: 'open sesame' } : undefined,
        headers: unlockToken ? { [COLLECTION_UNLOCK_HEADER]: unlockToken } : {},
      });
    const { unlockToken } = UnlockResponseSchema.parse(await (await visit('/unlock')).json());
    const seen = async () => ({
      page: PublicCollectionSchema.parse(await (await visit('', unlockToken)).json()),
      links: DownloadLinksSchema.parse(await (await visit('/download-links', unlockToken)).json()),
    });
    const before = await seen();
    expect(before.page).toMatchObject({ access: 'password', fileCount: 0, totalBytes: 0, folders: [] });
    expect(before.links.files).toEqual([]);
    await p.finish(started.submission);
    const after = await seen();
    expect(after.page).toMatchObject({ fileCount: 1, totalBytes: 40 });
    expect(after.links.files.map((f) => f.fileId)).toEqual([started.files[0]!.id]);
  });

  it('lets the owner publish a submission left unsent (announced, nobody mailed) or discard one (files, bytes and folder)', async () => {
    const { ws, page: p, api, r, token, collection, collections } = await openRequest();
    await collections.expectStatus(await collections.call('PATCH', `/collections/${collection.id}`, { visibility: 'public' }), 200);
    const events = await eventFeed(token);
    const kept: FileToSend[] = [{ name: 'kept.bin', bytes: randomFile(50) }];
    const left = await p.start({ name: 'Publish me' }, kept);
    await uploadAll(server, left.files, kept);
    const dropped: FileToSend[] = [{ name: 'dropped.bin', bytes: randomFile(70) }];
    const other = await p.start({ name: 'Discard me' }, dropped);
    await uploadAll(server, other.files, dropped);
    const mailsBefore = (await listOutbox(server.dataDir, ws.id, 1000)).length;

    const published = await api.call('POST', `/requests/${r.id}/submissions/${left.submission.id}/publish`);
    expect(published.status).toBe(200);
    expect(SubmissionResponseSchema.parse(await published.json()).submission).toMatchObject({ id: left.submission.id, sent: true, status: 'complete', discardAt: null });
    // Again: nothing changes.
    expect((await api.call('POST', `/requests/${r.id}/submissions/${left.submission.id}/publish`)).status).toBe(200);
    expect((await publicView(collection.slug)).listed.files.map((f) => f.name)).toEqual(['kept.bin']);
    expect((await events('collection.file_uploaded')).map((e) => (e.data.file as { id: string }).id)).toEqual([left.files[0]!.id]);
    expect(await events('request.submitted')).toHaveLength(1);
    // The uploader's page cannot add to it any more.
    const more = await p.visit(`/submissions/${left.submission.id}/files`, { method: 'POST', token: left.submission.token, json: { files: [{ name: 'x', size: 1 }] } });
    expect((await errorOf(more, 409)).details).toMatchObject({ reason: 'finished' });

    const discarded = await api.call('DELETE', `/requests/${r.id}/submissions/${other.submission.id}`);
    expect(discarded.status).toBe(200);
    expect(await discarded.json()).toEqual({ deleted: true });
    expect((await fileRowsOf(collection.id)).map((f) => f.id)).toEqual([left.files[0]!.id]);
    expect(await storedLength(server.services, other.files[0]!.id)).toBeNull();
    expect((await foldersOf(collections, collection.id)).map((f) => f.name)).toEqual([`Publish me ${today()}`]);
    expect((await api.submissions(r.id)).map((s) => s.id)).toEqual([left.submission.id]);
    expect((await errorOf(await p.visit(`/submissions/${other.submission.id}/finish`, { method: 'POST', token: other.submission.token }), 404)).code).toBe(
      'not_found',
    );

    // A sent submission is the collection's: it cannot be discarded; unknown ones are 404.
    expect((await errorOf(await api.call('DELETE', `/requests/${r.id}/submissions/${left.submission.id}`), 409)).details).toMatchObject({ reason: 'sent' });
    expect((await errorOf(await api.call('DELETE', `/requests/${r.id}/submissions/sub_0000000000000000000000`), 404)).code).toBe('not_found');
    expect((await listOutbox(server.dataDir, ws.id, 1000)).length).toBe(mailsBefore);
    expect(await events('collection.file_uploaded')).toHaveLength(1);
  });
});

describe('files per submission', () => {
  it('allows 500 by default, or the request’s own number, and refuses one more before anything is written, naming the limit', async () => {
    const { page, api, r, collection } = await openRequest();
    expect((await page.describe()).maxFiles).toBe(500);
    expect(r.maxFiles).toBe(500);
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.bin`, size: 1 }));
    const refused = await errorOf(await page.visit('/submissions', { method: 'POST', json: { name: 'Flood', files: many(501) } }), 400);
    expect(fieldOf(refused)).toBe('files');
    expect(JSON.stringify(refused.details)).toContain('at most 500 files per submission');
    expect(await fileRowsOf(collection.id)).toEqual([]);
    expect(await api.submissions(r.id)).toEqual([]);

    const started = await page.visit('/submissions', { method: 'POST', json: { name: 'Flood', files: many(499) } });
    expect(started.status).toBe(201);
    const { submission } = (await started.json()) as { submission: { id: string; token: string } };
    const add = (n: number) => page.visit(`/submissions/${submission.id}/files`, { method: 'POST', token: submission.token, json: { files: many(n) } });
    const twoMore = await errorOf(await add(2), 400);
    expect(JSON.stringify(twoMore.details)).toContain('at most 500 files per submission (this one holds 499 already)');
    expect((await add(1)).status).toBe(201);
    expect(fieldOf(await errorOf(await add(1), 400))).toBe('files');
    expect(await fileRowsOf(collection.id)).toHaveLength(500);

    // The owner sets another number; the page and the server apply the same one.
    const changed = await api.update(r.id, { maxFiles: 2 });
    expect(changed.maxFiles).toBe(2);
    expect((await page.describe()).maxFiles).toBe(2);
    expect(JSON.stringify((await errorOf(await page.visit('/submissions', { method: 'POST', json: { name: 'Ada', files: many(3) } }), 400)).details)).toContain(
      'at most 2 files per submission',
    );
    expect((await api.update(r.id, { maxFiles: null })).maxFiles).toBe(500);
  });
});

describe('submissions never sent', () => {
  it('publishes nothing by itself: a week after it was started, one never sent is discarded with its files, bytes and folder', async () => {
    const { page: p, api, r, token, collection, collections } = await openRequest();
    const events = await eventFeed(token);
    const arrived = randomFile(100);
    const left = await p.start({ name: 'Closed the tab' }, [{ name: 'kept.bin', bytes: arrived }]);
    await uploadAll(server, left.files, [{ name: 'kept.bin', bytes: arrived }]);
    expect(await storedLength(server.services, left.files[0]!.id)).toBe(100);

    server.clock.advance(6 * DAY);
    await sweepAbandonedUploads(server.services);
    await sweepUnsentSubmissions(server.services);
    expect(await api.submissions(r.id)).toMatchObject([
      { id: left.submission.id, status: 'uploading', sent: false, fileCount: 1, discardAt: new Date(server.clock.now().getTime() + DAY).toISOString() },
    ]);
    expect((await filesOf(collections, collection.id)).map((f) => [f.name, f.unsent])).toEqual([['kept.bin', true]]);

    server.clock.advance(DAY + 60_000);
    await sweepAbandonedUploads(server.services);
    await sweepUnsentSubmissions(server.services);
    expect(await api.submissions(r.id)).toEqual([]);
    expect(await foldersOf(collections, collection.id)).toEqual([]);
    expect(await fileRowsOf(collection.id)).toEqual([]);
    expect(await storedLength(server.services, left.files[0]!.id)).toBeNull();
    // Nothing was ever announced: the files never were the collection's.
    expect(await events('request.submitted')).toEqual([]);
    expect(await events('collection.file_uploaded')).toEqual([]);
  });

  it('deletes files registered into a submission never sent whose bytes did not arrive within a day, and the submission once it holds none', async () => {
    const { page: p, api, r, collection, collections } = await openRequest();
    const day = today();
    const arrived = randomFile(100);
    const partly = await p.start({ name: 'Half done' }, [
      { name: 'arrived.bin', bytes: arrived },
      { name: 'never.bin', bytes: randomFile(100) },
    ]);
    await uploadAll(server, partly.files.slice(0, 1), [{ name: 'arrived.bin', bytes: arrived }]);
    const nothing = await p.start({ name: 'Registered only' }, [{ name: 'ghost.bin', bytes: randomFile(100) }]);
    const sent = await p.start({ name: 'Sent early' }, [{ name: 'slow.bin', bytes: randomFile(100) }]);
    await p.finish(sent.submission);

    server.clock.advance(23 * HOUR);
    await sweepUnsentSubmissions(server.services);
    expect(await fileRowsOf(collection.id)).toHaveLength(4);

    server.clock.advance(2 * HOUR);
    await sweepUnsentSubmissions(server.services);
    const rows = (await fileRowsOf(collection.id)).map((f) => f.id).sort();
    // The sent one's file is the collection's: it is given up only as any abandoned upload is, after a week.
    expect(rows).toEqual([partly.files[0]!.id, sent.files[0]!.id].sort());
    const listed = await api.submissions(r.id);
    // Started in the same instant: their order is the ids'.
    expect(listed.map((s) => [s.uploader.name, s.fileCount]).sort()).toEqual([
      ['Half done', 1],
      ['Sent early', 1],
    ]);
    expect((await foldersOf(collections, collection.id)).map((f) => f.name).sort()).toEqual([`Half done ${day}`, `Sent early ${day}`].sort());
    expect(listed.map((s) => s.id)).not.toContain(nothing.submission.id);
    // The uploader still holding the page can finish what arrived.
    expect((await p.finish(partly.submission)).status).toBe('complete');
  });

  it('completes a sent submission whose last unfinished file was abandoned, with the files that did arrive', async () => {
    const { page: p, api, r, token } = await openRequest();
    const events = await eventFeed(token);
    const arrived = randomFile(100);
    const started = await p.start({ name: 'Ada' }, [
      { name: 'arrived.bin', bytes: arrived },
      { name: 'abandoned.bin', bytes: randomFile(100) },
    ]);
    await uploadAll(server, started.files.slice(0, 1), [{ name: 'arrived.bin', bytes: arrived }]);
    expect((await p.finish(started.submission)).status).toBe('uploading');

    server.clock.advance(7 * DAY + 60_000);
    await sweepAbandonedUploads(server.services);
    await sweepUnsentSubmissions(server.services);
    const [s] = await api.submissions(r.id);
    expect(s).toMatchObject({ status: 'complete', fileCount: 1 });
    expect(s!.files.map((f) => f.name)).toEqual(['arrived.bin']);
    const submitted = await events('request.submitted');
    expect(submitted).toHaveLength(1);
    expect((submitted[0]!.data.files as { name: string }[]).map((f) => f.name)).toEqual(['arrived.bin']);
  });

  it('keeps only a hash of a submission’s token', async () => {
    const { page: p } = await openRequest();
    const started = await p.start({ name: 'Ada' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    expect(started.submission.token).toMatch(/^st_[0-9A-Za-z]{43}$/);
    const [row] = await server.services.db.select().from(requestSubmissions).where(eq(requestSubmissions.id, started.submission.id));
    expect(JSON.stringify(row)).not.toContain(started.submission.token);
    expect(JSON.stringify(row)).not.toContain(started.submission.token.slice(3));
  });
});
