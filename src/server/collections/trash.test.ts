// @module-tag scale-out — the purge deletes bytes from the configured storage
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema, FolderListSchema, RestoredSchema, TrashListSchema } from '../../contract/collections.js';
import { PublicCollectionFilePageSchema } from '../../contract/public-collections.js';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { collectionsApi, previewsSettled } from '../test/collections.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { download, pathOf } from '../test/transfers.js';
import { purgeExpiredTrash } from './trash.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
});
afterAll(() => server.stop());

async function owner() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const api = collectionsApi(server, await ws.createKey(['collections:read', 'collections:write'], 'collections'));
  const json = async (method: string, path: string, body?: unknown) => api.expectStatus(await api.call(method, path, body), 200);
  return {
    ws,
    api,
    json,
    trash: async (id: string) => TrashListSchema.parse(await json('GET', `/collections/${id}/trash`)).items,
    ownFiles: async (id: string) => CollectionFilePageSchema.parse(await json('GET', `/collections/${id}/files`)).files,
    folders: async (id: string) => FolderListSchema.parse(await json('GET', `/collections/${id}/folders`)).folders,
    links: async (id: string) => DownloadLinksSchema.parse(await json('GET', `/collections/${id}/download-links`)),
  };
}

const bytes = (text: string) => Buffer.from(text.repeat(200));

describe("a collection's trash", () => {
  it('takes a deleted file out of every listing, zip, link and preview at once, and restores it into its folder with its bytes intact', async () => {
    const o = await owner();
    const c = await o.api.create({ title: 'Portfolio', visibility: 'public' });
    const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#884422' } }).png().toBuffer();
    const [photoId, notesId] = await o.api.upload(c.id, [
      { name: 'photo.png', bytes: photo, mimeType: 'image/png', path: 'Shoot' },
      { name: 'notes.txt', bytes: bytes('notes ') },
    ]);
    await previewsSettled(server, c.id);
    const before = await o.links(c.id);
    const photoLink = before.files.find((f) => f.fileId === photoId)!.url;
    const visitorFiles = async () => PublicCollectionFilePageSchema.parse(await (await server.fetch(`/api/public/collections/${c.slug}/files`)).json()).files;
    const preview = (await visitorFiles()).find((f) => f.id === photoId)!.thumbnailUrl!;
    expect((await server.fetch(pathOf(preview))).status).toBe(200);

    expect(await o.json('DELETE', `/collections/${c.id}/files`, { fileIds: [photoId] })).toEqual({ deleted: 1 });
    expect((await o.ownFiles(c.id)).map((f) => f.name)).toEqual(['notes.txt']);
    expect((await visitorFiles()).map((f) => f.name)).toEqual(['notes.txt']);
    const after = await o.links(c.id);
    expect(after.files.map((f) => f.name)).toEqual(['notes.txt']);
    expect(after.zip.sizeBytes).toBeLessThan(before.zip.sizeBytes);
    // Links and previews handed out before are refused from now on.
    expect((await server.fetch(pathOf(photoLink))).status).toBe(404);
    expect((await server.fetch(pathOf(preview))).status).toBe(404);
    expect((await o.json('GET', `/collections/${c.id}`)) as { collection: { fileCount: number } }).toMatchObject({ collection: { fileCount: 1 } });

    const [item] = await o.trash(c.id);
    expect(item).toMatchObject({ kind: 'file', id: photoId, name: 'photo.png', path: 'Shoot/photo.png', mimeType: 'image/png', fileCount: 1, sizeBytes: photo.length });
    expect(Date.parse(item!.purgeAt) - Date.parse(item!.trashedAt)).toBe(30 * 86_400_000);

    const restored = RestoredSchema.parse(await o.json('POST', `/collections/${c.id}/trash/${photoId}/restore`)).restored;
    const shoot = (await o.folders(c.id)).find((f) => f.name === 'Shoot')!;
    expect(restored).toEqual({ kind: 'file', id: photoId, folderId: shoot.id });
    expect(await o.trash(c.id)).toEqual([]);
    const back = (await o.links(c.id)).files.find((f) => f.fileId === photoId)!;
    const { res, body } = await download(server, back.url);
    expect([res.status, body.equals(photo)]).toEqual([200, true]);
    expect(notesId).toBeDefined();
  });

  it('keeps a deleted folder whole as one item; a new folder may take its name, and the restore then asks for it back', async () => {
    const o = await owner();
    const c = await o.api.create({ title: 'Shoots' });
    const ids = await o.api.upload(c.id, [
      { name: 'a.jpg', bytes: bytes('a'), path: 'Day 1' },
      { name: 'b.jpg', bytes: bytes('b'), path: 'Day 1/Raw' },
      { name: 'c.jpg', bytes: bytes('c'), path: 'Day 2' },
    ]);
    const day1 = (await o.folders(c.id)).find((f) => f.path === 'Day 1')!;
    expect(await o.json('DELETE', `/collections/${c.id}/folders/${day1.id}`)).toEqual({ deleted: true });
    expect((await o.folders(c.id)).map((f) => f.path)).toEqual(['Day 2']);
    expect((await o.ownFiles(c.id)).map((f) => f.name)).toEqual(['c.jpg']);
    expect(await o.trash(c.id)).toMatchObject([{ kind: 'folder', id: day1.id, name: 'Day 1', path: 'Day 1', mimeType: null, fileCount: 2, sizeBytes: 400 }]);
    // Neither its files nor its subfolder are items of their own.
    expect((await errorOf(await o.api.call('POST', `/collections/${c.id}/trash/${ids[1]}/restore`), 404)).code).toBe('not_found');

    const newer = (await api201(o, `/collections/${c.id}/folders`, { name: 'day 1' })) as { folder: { id: string } };
    const clash = await errorOf(await o.api.call('POST', `/collections/${c.id}/trash/${day1.id}/restore`), 409);
    expect(clash.details.reason).toBe('name_taken');
    expect((await o.trash(c.id)).map((i) => i.id)).toEqual([day1.id]);
    await o.json('PATCH', `/collections/${c.id}/folders/${newer.folder.id}`, { name: 'Day 1 (new)' });

    expect(RestoredSchema.parse(await o.json('POST', `/collections/${c.id}/trash/${day1.id}/restore`)).restored).toEqual({ kind: 'folder', id: day1.id, folderId: null });
    expect((await o.folders(c.id)).map((f) => f.path)).toEqual(['Day 1', 'Day 1/Raw', 'Day 1 (new)', 'Day 2']);
    expect((await o.ownFiles(c.id)).map((f) => f.name)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    const zip = await download(server, (await o.links(c.id)).zip.url);
    expect(zip.res.status).toBe(200);
    for (const name of ['Day 1/a.jpg', 'Day 1/Raw/b.jpg', 'Day 2/c.jpg']) expect(zip.body.includes(Buffer.from(name))).toBe(true);
  });

  it('restores a file to the top level when its folder went to the trash after it', async () => {
    const o = await owner();
    const c = await o.api.create({ title: 'Nested' });
    const [inside] = await o.api.upload(c.id, [{ name: 'inside.txt', bytes: bytes('i'), path: 'Box' }]);
    const box = (await o.folders(c.id))[0]!;
    await o.json('DELETE', `/collections/${c.id}/files`, { fileIds: [inside] });
    await o.json('DELETE', `/collections/${c.id}/folders/${box.id}`);
    expect((await o.trash(c.id)).map((i) => [i.kind, i.name])).toEqual(
      expect.arrayContaining([
        ['file', 'inside.txt'],
        ['folder', 'Box'],
      ]),
    );
    expect(RestoredSchema.parse(await o.json('POST', `/collections/${c.id}/trash/${inside}/restore`)).restored.folderId).toBeNull();
    // The folder, deleted for good, takes nothing with it that is not its own.
    expect(await o.json('DELETE', `/collections/${c.id}/trash/${box.id}`)).toEqual({ deleted: true });
    expect((await o.ownFiles(c.id)).map((f) => [f.name, f.folderId])).toEqual([['inside.txt', null]]);
  });

  it('purges what was deleted more than TRASH_RETENTION_DAYS ago with its bytes at the sweep, and nothing younger', async () => {
    const o = await owner();
    const c = await o.api.create({ title: 'Old things' });
    const [old, young] = await o.api.upload(c.id, [
      { name: 'old.txt', bytes: bytes('o') },
      { name: 'young.txt', bytes: bytes('y') },
    ]);
    await o.json('DELETE', `/collections/${c.id}/files`, { fileIds: [old] });
    server.clock.advance(2 * 86_400_000);
    await o.json('DELETE', `/collections/${c.id}/files`, { fileIds: [young] });
    server.clock.advance(28 * 86_400_000 + 60_000);

    expect(await purgeExpiredTrash(server.services)).toBeGreaterThanOrEqual(1);
    expect((await o.trash(c.id)).map((i) => i.name)).toEqual(['young.txt']);
    expect(await server.services.storage.size(old!)).toBeNull();
    expect(await server.services.storage.size(young!)).not.toBeNull();
    expect((await errorOf(await o.api.call('POST', `/collections/${c.id}/trash/${old}/restore`), 404)).code).toBe('not_found');
  });

  it('lets a read-only key see the trash but not change it', async () => {
    const o = await owner();
    const c = await o.api.create({ title: 'Read only' });
    const [file] = await o.api.upload(c.id, [{ name: 'x.txt', bytes: bytes('x') }]);
    await o.json('DELETE', `/collections/${c.id}/files`, { fileIds: [file] });
    const reader = collectionsApi(server, await o.ws.createKey(['collections:read'], 'reader'));
    expect((await reader.call('GET', `/collections/${c.id}/trash`)).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/collections/${c.id}/trash/${file}/restore`],
      ['DELETE', `/collections/${c.id}/trash/${file}`],
    ] as const) {
      expect((await errorOf(await reader.call(method, path), 403)).code).toBe('insufficient_scope');
    }
  });
});

async function api201(o: Awaited<ReturnType<typeof owner>>, path: string, body: unknown) {
  return o.api.expectStatus(await o.api.call('POST', path, body), 201);
}
