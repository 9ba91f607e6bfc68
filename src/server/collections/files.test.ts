// @module-tag scale-out — upload bytes land in the configured storage
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema, CollectionResponseSchema, FolderListSchema } from '../../contract/collections.js';
import { webhookEventDataSchemas } from '../../contract/webhooks.js';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { newId } from '../core/secrets.js';
import { collectionFiles, files } from '../db/schema/index.js';
import { dashboardToken, errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { download } from '../test/transfers.js';
import { crcOf, randomFile } from '../test/uploads.js';
import { deliverDueWebhooks } from '../test/worker.js';
import { answers, startReceiver, verifySignature, type Receiver } from '../test/webhook-receiver.js';
import { parseEnvelope, webhooksApi } from '../test/webhooks.js';
import { sweepAbandonedUploads } from '../files/stored.js';
import { collectionsApi, previewsSettled } from '../test/collections.js';

const run = promisify(execFile);

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(answers.status(200, 'ok'));
  server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1' });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function paidWorkspace() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const token = await ws.createKey(['collections:read', 'collections:write', 'webhooks:read', 'webhooks:write'], 'collections');
  return { ws, token, api: collectionsApi(server, token) };
}

const fieldOf = (error: { details: Record<string, unknown> }) => (error.details.fields as { path: string }[])[0]!.path;

describe('files of a collection', () => {
  it('uploads through the one tus endpoint into folders made from relative paths, and lists them oldest first', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create({ title: 'Shoot' });
    const a = randomFile(70_000);
    const b = randomFile(1234);
    const ids = await api.upload(c.id, [
      { name: 'a.bin', bytes: a, path: 'Day 1/Raw' },
      { name: 'b.bin', bytes: b },
    ]);

    const folders = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders;
    expect(folders.map((f) => [f.path, f.depth])).toEqual([
      ['Day 1', 0],
      ['Day 1/Raw', 1],
    ]);
    const raw = folders.find((f) => f.path === 'Day 1/Raw')!;

    const page = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json());
    expect(page.nextCursor).toBeNull();
    expect(page.files.map((f) => [f.id, f.name, f.folderId, f.sizeBytes, f.crc32, f.state])).toEqual([
      [ids[0], 'a.bin', raw.id, a.length, crcOf(a), 'complete'],
      [ids[1], 'b.bin', null, b.length, crcOf(b), 'complete'],
    ]);

    // A second drop of the same tree reuses its folders, whatever the case.
    await api.upload(c.id, [{ name: 'c.bin', bytes: randomFile(10), path: 'day 1/RAW' }]);
    const again = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders;
    expect(again).toHaveLength(2);

    const collection = CollectionResponseSchema.parse(await (await api.call('GET', `/collections/${c.id}`)).json()).collection;
    expect(collection).toMatchObject({ fileCount: 3, sizeBytes: a.length + b.length + 10 });
  });

  it('adds into a given folder, and refuses a folder of another collection naming folderId', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create({ title: 'One' });
    const other = await api.create({ title: 'Two' });
    const folder = (await api.expectStatus(await api.call('POST', `/collections/${other.id}/folders`, { name: 'Elsewhere' }), 201)) as {
      folder: { id: string };
    };
    const refused = await errorOf(await api.call('POST', `/collections/${c.id}/files`, { files: [{ name: 'x', size: 1 }], folderId: folder.folder.id }), 400);
    expect(fieldOf(refused)).toBe('folderId');

    const mine = (await api.expectStatus(await api.call('POST', `/collections/${c.id}/folders`, { name: 'Mine' }), 201)) as { folder: { id: string } };
    // Folder paths are capped (an index entry has a size limit): a tree too deep under it is refused naming the file's path.
    const long = ['b', 'c', 'd', 'e'].map((ch) => ch.repeat(255)).join('/');
    expect(
      fieldOf(
        await errorOf(
          await api.call('POST', `/collections/${c.id}/files`, {
            files: [
              { name: 'ok', size: 1 },
              { name: 'x', size: 1, path: long },
            ],
            folderId: mine.folder.id,
          }),
          400,
        ),
      ),
    ).toBe('files.1.path');
    const [id] = await api.upload(c.id, [{ name: 'x.txt', bytes: Buffer.from('x'), path: 'Sub' }], mine.folder.id);
    const folders = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders;
    const sub = folders.find((f) => f.path === 'Mine/Sub')!;
    const listed = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(listed.find((f) => f.id === id)!.folderId).toBe(sub.id);
  });

  it('refuses a plain-http URL import naming it, and an empty request naming files', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    expect(fieldOf(await errorOf(await api.call('POST', `/collections/${c.id}/files`, { imports: [{ url: 'http://example.com/a.zip' }] }), 400))).toBe(
      'imports.0.url',
    );
    expect(fieldOf(await errorOf(await api.call('POST', `/collections/${c.id}/files`, {}), 400))).toBe('files');
  });

  it('renames and moves a file, deletes files to the trash (a deleted cover leaves none), and takes only images as covers', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const [image, text, third] = await api.upload(c.id, [
      { name: 'cover.png', bytes: png, mimeType: 'image/png' },
      { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain' },
      { name: 'keep.txt', bytes: Buffer.from('keep') },
    ]);
    const folder = (await api.expectStatus(await api.call('POST', `/collections/${c.id}/folders`, { name: 'Docs' }), 201)) as { folder: { id: string } };

    const moved = (await api.expectStatus(
      await api.call('PATCH', `/collections/${c.id}/files/${text}`, { name: ' renamed.txt ', folderId: folder.folder.id }),
      200,
    )) as {
      file: { name: string; folderId: string | null };
    };
    expect(moved.file).toMatchObject({ name: 'renamed.txt', folderId: folder.folder.id });
    const back = (await api.expectStatus(await api.call('PATCH', `/collections/${c.id}/files/${text}`, { folderId: null }), 200)) as {
      file: { folderId: string | null };
    };
    expect(back.file.folderId).toBeNull();

    expect(fieldOf(await errorOf(await api.call('PATCH', `/collections/${c.id}`, { coverFileId: text }), 400))).toBe('coverFileId');
    expect(fieldOf(await errorOf(await api.call('PATCH', `/collections/${c.id}`, { coverFileId: 'fi_nothing' }), 400))).toBe('coverFileId');
    const withCover = CollectionResponseSchema.parse(
      await api.expectStatus(await api.call('PATCH', `/collections/${c.id}`, { coverFileId: image }), 200),
    ).collection;
    expect(withCover.coverFileId).toBe(image);

    const deleted = await api.expectStatus(await api.call('DELETE', `/collections/${c.id}/files`, { fileIds: [image, text, 'fi_unknown', image] }), 200);
    expect(deleted).toEqual({ deleted: 2 });
    const after = CollectionResponseSchema.parse(await (await api.call('GET', `/collections/${c.id}`)).json()).collection;
    expect(after).toMatchObject({ coverFileId: null, fileCount: 1 });
    const left = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(left.map((f) => f.id)).toEqual([third]);
    // In the trash: out of sight, its bytes kept until it is deleted for good.
    expect(await server.services.storage.size(image!)).not.toBeNull();
    expect((await api.call('DELETE', `/collections/${c.id}/trash/${image}`)).status).toBe(200);
    expect(await server.services.storage.size(image!)).toBeNull();

    expect(fieldOf(await errorOf(await api.call('DELETE', `/collections/${c.id}/files`, { fileIds: [] }), 400))).toBe('fileIds');
    expect(fieldOf(await errorOf(await api.call('DELETE', `/collections/${c.id}/files`, { fileIds: [''] }), 400))).toBe('fileIds.0');
    expect(
      fieldOf(await errorOf(await api.call('DELETE', `/collections/${c.id}/files`, { fileIds: Array.from({ length: 501 }, (_, i) => `fi_${i}`) }), 400)),
    ).toBe('fileIds');
  });

  it('keeps another workspace’s collection, files and folders out of reach (404)', async () => {
    const mine = await paidWorkspace();
    const theirs = await paidWorkspace();
    const c = await theirs.api.create();
    const [fileId] = await theirs.api.upload(c.id, [{ name: 'secret.txt', bytes: Buffer.from('secret') }]);
    for (const [method, p, body] of [
      ['GET', `/collections/${c.id}/files`, undefined],
      ['POST', `/collections/${c.id}/files`, { files: [{ name: 'x', size: 1 }] }],
      ['PATCH', `/collections/${c.id}/files/${fileId}`, { name: 'mine' }],
      ['DELETE', `/collections/${c.id}/files`, { fileIds: [fileId] }],
      ['GET', `/collections/${c.id}/download-links`, undefined],
    ] as const) {
      expect((await mine.api.call(method, p, body)).status, `${method} ${p}`).toBe(404);
    }
    // Nor does a file id of their collection work through one of mine.
    const own = await mine.api.create();
    expect((await mine.api.call('PATCH', `/collections/${own.id}/files/${fileId}`, { name: 'mine' })).status).toBe(404);
    expect(await mine.api.expectStatus(await mine.api.call('DELETE', `/collections/${own.id}/files`, { fileIds: [fileId] }), 200)).toEqual({ deleted: 0 });
  });
});

describe('abandoned uploads', () => {
  it('are deleted a week after registration once no upload token is valid, complete files and live uploads kept', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    const [done] = await api.upload(c.id, [{ name: 'done.txt', bytes: Buffer.from('done') }]);
    const added = (await api.expectStatus(await api.call('POST', `/collections/${c.id}/files`, { files: [{ name: 'stalled.bin', size: 100 }] }), 201)) as {
      files: { id: string; uploadToken: string }[];
    };
    const stalled = added.files[0]!;
    // Half of it arrives, then the uploader goes away.
    await fetch(`${server.url}/files/`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': stalled.uploadToken, 'upload-length': '100' },
    });
    const patched = await fetch(`${server.url}/files/${stalled.id}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'x-service-upload-token': stalled.uploadToken,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(50, 1),
    });
    expect(patched.status).toBe(204);

    server.clock.advance(6 * 24 * 3600_000);
    expect(await sweepAbandonedUploads(server.services)).toBe(0);
    server.clock.advance(2 * 24 * 3600_000);
    expect(await sweepAbandonedUploads(server.services)).toBe(1);
    const left = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(left.map((f) => f.id)).toEqual([done]);
    expect(await server.services.storage.size(stalled.id)).toBeNull();
  });
});

describe('previews', () => {
  it('are made by the worker for images only, turning hasThumbnail true', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    const [image, text] = await api.upload(c.id, [
      { name: 'photo.jpg', bytes: photo, mimeType: 'image/jpeg' },
      { name: 'fake.png', bytes: Buffer.from('not an image'), mimeType: 'image/png' },
    ]);
    await previewsSettled(server, c.id);
    const after = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(after.map((f) => [f.id, f.hasThumbnail])).toEqual([
      [image, true],
      [text, false],
    ]);
    const [row] = await server.services.db.select({ key: files.thumbnailKey }).from(files).where(eq(files.id, image!));
    const meta = await sharp(await streamToBuffer(server.services.storage.read(row!.key!))).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 320 });
  });

  it('come to the owner as signed URLs when the file list is asked with thumbnails=true, and only then', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#37a' } })
      .png()
      .toBuffer();
    const [image, text] = await api.upload(c.id, [
      { name: 'photo.png', bytes: photo, mimeType: 'image/png' },
      { name: 'notes.txt', bytes: Buffer.from('notes'), mimeType: 'text/plain' },
    ]);
    await previewsSettled(server, c.id);

    const plain = CollectionFilePageSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/files`), 200)).files;
    expect(plain.every((f) => !('thumbnailUrl' in f))).toBe(true);

    const listed = CollectionFilePageSchema.parse(
      await api.expectStatus(await api.call('GET', `/collections/${c.id}/files?thumbnails=true&limit=10`), 200),
    ).files;
    const urls = new Map(listed.map((f) => [f.id, f.thumbnailUrl]));
    expect(urls.get(text!)).toBeNull();
    const url = urls.get(image!);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1\/thumb\/[^/]+$/);
    const preview = await server.fetch(new URL(url!).pathname);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).width).toBe(480);

    expect(
      CollectionFilePageSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/files?thumbnails=false`), 200)).files.every(
        (f) => f.thumbnailUrl === undefined,
      ),
    ).toBe(true);
    expect(fieldOf(await errorOf(await api.call('GET', `/collections/${c.id}/files?thumbnails=yes`), 400))).toBe('thumbnails');
  });
});

describe('listing 2,500 files', () => {
  it('walks pages by cursor, gives everything at once without limit, and refuses a foreign cursor', async () => {
    const { api, ws } = await paidWorkspace();
    const c = await api.create({ title: 'Archive' });
    const other = await api.create({ title: 'Other' });
    const now = server.clock.now();
    const rows = Array.from({ length: 2500 }, (_, i) => ({ id: newId('fi'), name: `file-${String(i).padStart(4, '0')}.txt` }));
    await server.services.db.insert(files).values(
      rows.map((r) => ({
        ...r,
        workspaceId: ws.id,
        ownerKind: 'collection' as const,
        ownerId: c.id,
        sizeBytes: 1,
        mimeType: 'text/plain',
        state: 'complete' as const,
        storageKey: r.id,
        crc32: '00000000',
        createdAt: now,
      })),
    );
    await server.services.db.insert(collectionFiles).values(rows.map((r) => ({ fileId: r.id, collectionId: c.id, source: 'api' as const })));
    await api.upload(other.id, [{ name: 'o.txt', bytes: Buffer.from('o') }]);

    const all = CollectionFilePageSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/files`), 200));
    expect(all.files.map((f) => f.name)).toEqual(rows.map((r) => r.name));
    expect(all.nextCursor).toBeNull();

    const walked: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=1000&cursor=${encodeURIComponent(cursor)}` : '?limit=1000';
      const page = CollectionFilePageSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/files${query}`), 200));
      walked.push(...page.files.map((f) => f.name));
      sizes.push(page.files.length);
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(walked).toEqual(rows.map((r) => r.name));

    const first = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files?limit=2`)).json());
    // A cursor of this collection, given for another one of the same workspace or by another workspace: refused, naming cursor.
    expect(fieldOf(await errorOf(await api.call('GET', `/collections/${other.id}/files?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`), 400))).toBe(
      'cursor',
    );
    expect(fieldOf(await errorOf(await api.call('GET', `/collections/${c.id}/files?cursor=not-a-cursor`), 400))).toBe('cursor');
    for (const limit of ['0', '1001', 'ten']) {
      expect(fieldOf(await errorOf(await api.call('GET', `/collections/${c.id}/files?limit=${limit}`), 400))).toBe('limit');
    }
  });
});

describe('collection.file_uploaded', () => {
  it('reaches a real receiver once per file, signed, with the collection, the file, its folder, the source and who added it', async () => {
    const { api, token } = await paidWorkspace();
    const hooks = webhooksApi(server, token);
    const { secret } = await hooks.create({ url: `${receiver.url}/collections`, events: ['collection.file_uploaded'] });
    const c = await api.create({ title: 'Deliveries' });
    const bytes = randomFile(5000);
    const [fileId] = await api.upload(c.id, [{ name: 'plan.pdf', bytes, path: 'Docs', mimeType: 'application/pdf' }]);
    const folderId = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders[0]!.id;

    // A HEAD after completion reports the file complete again; it must not announce it twice.
    await fetch(`${server.url}/files/${fileId}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(await deliverDueWebhooks(server.services)).toBe(1);
    const received = receiver.at('/collections');
    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(verifySignature(secret, req.headers['service-signature'], req.rawBody, server.clock.now())).toBe(true);
    const envelope = parseEnvelope(req.rawBody);
    expect(envelope.type).toBe('collection.file_uploaded');
    expect(envelope.data).toEqual({
      collection: { id: c.id, title: 'Deliveries' },
      file: { id: fileId, name: 'plan.pdf', size: bytes.length, mimeType: 'application/pdf', crc32: crcOf(bytes), folderId },
      source: 'api',
      addedBy: { kind: 'key', id: expect.stringMatching(/^key_/), name: 'collections', email: null },
    });
    expect(await deliverDueWebhooks(server.services)).toBe(0);
  });

  it('names the member who added the file, as the owner’s file listing does', async () => {
    const { ws, api, token } = await paidWorkspace();
    const hooks = webhooksApi(server, token);
    const { webhook } = await hooks.create({ url: null, events: ['collection.file_uploaded'] });
    const c = await api.create({ title: 'Team drop' });
    const [fileId] = await collectionsApi(server, await dashboardToken(server, ws)).upload(c.id, [{ name: 'notes.txt', bytes: randomFile(10) }]);
    const [uploaded] = (await hooks.events(webhook.id)).events;
    const data = webhookEventDataSchemas['collection.file_uploaded'].parse(uploaded!.data);
    expect(data.addedBy).toEqual({ kind: 'member', id: ws.userId, name: null, email: ws.email });
    const listed = CollectionFilePageSchema.parse(await (await api.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(listed.find((f) => f.id === fileId)!.addedBy).toEqual(data.addedBy);
  });

  it('is not sent while the workspace is on the free plan (a paid event)', async () => {
    const { api, token, ws } = await paidWorkspace();
    const hooks = webhooksApi(server, token);
    await hooks.create({ url: `${receiver.url}/lapsed`, events: ['collection.file_uploaded'] });
    const c = await api.create();
    const added = (await api.expectStatus(await api.call('POST', `/collections/${c.id}/files`, { files: [{ name: 'late.txt', size: 0 }] }), 201)) as {
      files: { uploadToken: string }[];
    };
    await server.setPlan(ws.id, 'free');
    const created = await fetch(`${server.url}/files/`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': added.files[0]!.uploadToken, 'upload-length': '0' },
    });
    expect(created.status).toBe(201);
    await deliverDueWebhooks(server.services);
    expect(receiver.at('/lapsed')).toHaveLength(0);
  });
});

describe('download links', () => {
  it('zip a folder with its tree (unzip -t and Python’s zipfile agree), resume with Range, and serve single files', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create({ title: 'Project' });
    const contents = {
      top: randomFile(3000),
      plan: randomFile(40_000),
      raw: randomFile(120_000),
      deep: randomFile(10),
    };
    await api.upload(c.id, [
      { name: 'top.txt', bytes: contents.top },
      { name: 'plan.pdf', bytes: contents.plan, path: 'Site/Plans' },
      { name: 'raw.bin', bytes: contents.raw, path: 'Site/Plans/Raw' },
      { name: 'deep.txt', bytes: contents.deep, path: 'Site/Plans/Raw/Deeper/Deepest' },
      { name: 'elsewhere.txt', bytes: Buffer.from('not in the folder'), path: 'Site' },
    ]);
    const plans = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders.find((f) => f.path === 'Site/Plans')!;

    const links = DownloadLinksSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/download-links?folderId=${plans.id}`), 200));
    expect(links.files.map((f) => [f.name, f.path])).toEqual([
      ['plan.pdf', 'Site/Plans'],
      ['raw.bin', 'Site/Plans/Raw'],
      ['deep.txt', 'Site/Plans/Raw/Deeper/Deepest'],
    ]);
    expect(links.zip.name).toBe('Plans.zip');
    const { res, body } = await download(server, links.zip.url);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(links.zip.sizeBytes);
    expect(body.length).toBe(links.zip.sizeBytes);

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'collection-zip-'));
    try {
      const zipPath = path.join(dir, 'plans.zip');
      await fs.writeFile(zipPath, body);
      const tested = await run('unzip', ['-t', zipPath]);
      expect(tested.stdout).toContain('No errors detected');
      const python = await run('python3', [
        '-c',
        'import json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({i.filename: i.file_size for i in z.infolist()}))',
        zipPath,
      ]);
      expect(JSON.parse(python.stdout)).toEqual({
        'plan.pdf': contents.plan.length,
        'Raw/raw.bin': contents.raw.length,
        'Raw/Deeper/Deepest/deep.txt': contents.deep.length,
      });
      await run('unzip', ['-q', zipPath, '-d', path.join(dir, 'out')]);
      expect(await fs.readFile(path.join(dir, 'out', 'Raw', 'raw.bin'))).toEqual(contents.raw);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }

    const etag = res.headers.get('etag')!;
    const part = await download(server, links.zip.url, { headers: { range: 'bytes=100-199', 'if-range': etag } });
    expect(part.res.status).toBe(206);
    expect(part.body).toEqual(body.subarray(100, 200));

    const whole = DownloadLinksSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/download-links`), 200));
    expect(whole.files).toHaveLength(5);
    expect(whole.zip.name).toBe('Project.zip');
    const top = whole.files.find((f) => f.name === 'top.txt')!;
    const single = await download(server, top.url);
    expect(single.res.status).toBe(200);
    expect(single.body).toEqual(contents.top);
    expect(top.crc32).toBe(crcOf(contents.top));

    expect(fieldOf(await errorOf(await api.call('GET', `/collections/${c.id}/download-links?folderId=fo_nothing`), 400))).toBe('folderId');
  });

  it('stop working once the folder they zip is deleted', async () => {
    const { api } = await paidWorkspace();
    const c = await api.create();
    await api.upload(c.id, [{ name: 'a.txt', bytes: Buffer.from('a'), path: 'Gone' }]);
    const folder = FolderListSchema.parse(await (await api.call('GET', `/collections/${c.id}/folders`)).json()).folders[0]!;
    const links = DownloadLinksSchema.parse(await (await api.call('GET', `/collections/${c.id}/download-links?folderId=${folder.id}`)).json());
    expect((await api.call('DELETE', `/collections/${c.id}/folders/${folder.id}`)).status).toBe(200);
    expect((await download(server, links.zip.url)).res.status).toBe(404);
    expect((await download(server, links.files[0]!.url)).res.status).toBe(404);
  });
});

describe('the plan gate', () => {
  it('answers 402 on the free plan except for download links, from the request after a lapse, and works again on renewal', async () => {
    const { api, ws } = await paidWorkspace();
    const c = await api.create({ title: 'Kept' });
    await api.upload(c.id, [{ name: 'kept.txt', bytes: Buffer.from('kept') }]);

    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 60_000));
    expect((await api.call('GET', `/collections/${c.id}/files`)).status).toBe(200);
    server.clock.advance(61_000);
    for (const [method, p, body] of [
      ['GET', '/collections', undefined],
      ['GET', `/collections/${c.id}`, undefined],
      ['GET', `/collections/${c.id}/files`, undefined],
      ['POST', `/collections/${c.id}/files`, { files: [{ name: 'x', size: 1 }] }],
      ['GET', `/collections/${c.id}/folders`, undefined],
      ['POST', `/collections/${c.id}/folders`, { name: 'New' }],
      ['PATCH', `/collections/${c.id}`, { title: 'Changed' }],
    ] as const) {
      expect((await errorOf(await api.call(method, p, body), 402)).code, `${method} ${p}`).toBe('upgrade_required');
    }
    // What it has stays downloadable.
    const links = DownloadLinksSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/download-links`), 200));
    expect((await download(server, links.files[0]!.url)).body.toString()).toBe('kept');

    await server.setPlan(ws.id, 'paid', null);
    expect((await api.call('GET', `/collections/${c.id}/files`)).status).toBe(200);
    expect((await api.call('PATCH', `/collections/${c.id}`, { title: 'Changed' })).status).toBe(200);
  });
});
