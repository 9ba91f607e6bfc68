// @module-tag scale-out — upload bytes land in the configured storage
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionListSchema, CollectionResponseSchema, type Collection } from '../../../../contract/collections.js';
import { collectionsApi, previewsSettled } from '../../../test/collections.js';
import { collections, files } from '../../../db/schema/index.js';
import { errorOf, startTestServer, type TestServer } from '../../../test/harness.js';
import { pathOf } from '../../../test/transfers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function paidKey() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  return { ws, token: await ws.createKey(['collections:read', 'collections:write'], 'collections') };
}

const call = (token: string, method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token, json });

async function create(token: string, body: unknown): Promise<Collection> {
  const res = await call(token, 'POST', '/collections', body);
  expect(res.status).toBe(201);
  return CollectionResponseSchema.parse(await res.json()).collection;
}

describe('collections', () => {
  it('creates a private collection with an unguessable secret link, reads it, lists it', async () => {
    const { token } = await paidKey();
    const created = await create(token, { title: '  Spring lookbook  ', description: 'Final selects' });
    expect(created).toMatchObject({
      title: 'Spring lookbook',
      description: 'Final selects',
      visibility: 'private',
      fileCount: 0,
      sizeBytes: 0,
      coverFileId: null,
      customLink: false,
      expiresAt: null,
    });
    expect(created.id).toMatch(/^col_/);
    expect(created.slug).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(created.url).toBe(`${server.services.config.PUBLIC_URL}/c/${created.slug}`);

    const read = await call(token, 'GET', `/collections/${created.id}`);
    expect(read.status).toBe(200);
    expect(CollectionResponseSchema.parse(await read.json()).collection).toEqual(created);

    const list = CollectionListSchema.parse(await (await call(token, 'GET', '/collections')).json());
    expect(list.collections).toEqual([
      {
        id: created.id,
        title: 'Spring lookbook',
        slug: created.slug,
        visibility: 'private',
        fileCount: 0,
        sizeBytes: 0,
        coverFileId: null,
        coverUrl: null,
        updatedAt: created.updatedAt,
      },
    ]);
  });

  it('lists most recently updated first', async () => {
    const { token } = await paidKey();
    const a = await create(token, { title: 'A' });
    server.clock.advance(1000);
    const b = await create(token, { title: 'B' });
    server.clock.advance(1000);
    expect((await call(token, 'PATCH', `/collections/${a.id}`, { title: 'A again' })).status).toBe(200);
    const list = CollectionListSchema.parse(await (await call(token, 'GET', '/collections')).json());
    expect(list.collections.map((c) => c.id)).toEqual([a.id, b.id]);
  });

  it('needs a password for visibility password, keeps only its hash, and refuses one for other visibilities', async () => {
    const { token } = await paidKey();
    const missing = await errorOf(await call(token, 'POST', '/collections', { title: 'Locked', visibility: 'password' }), 400);
    expect(missing.details.fields).toEqual([{ path: 'password', message: 'password is required for visibility password' }]);
    const stray = await errorOf(await call(token, 'POST', '/collections', { title: 'Open', visibility: 'public', password: 'hunter22' }), 400);
    expect(stray.details.fields).toEqual([{ path: 'password', message: 'password is only for visibility password' }]);

    const locked = await create(token, { title: 'Locked', visibility: 'password', password: 'hunter22' });
    expect(JSON.stringify(locked)).not.toContain('hunter22');
    const [row] = await server.services.db.select().from(collections).where(eq(collections.id, locked.id));
    expect(row!.passwordHash).toBeTruthy();
    expect(row!.passwordHash).not.toContain('hunter22');
  });

  it('changes only what is given; switching to password needs a password unless one is set', async () => {
    const { token } = await paidKey();
    const c = await create(token, { title: 'Shoot', description: 'Day one' });
    const toPassword = await errorOf(await call(token, 'PATCH', `/collections/${c.id}`, { visibility: 'password' }), 400);
    expect(toPassword.details.fields).toEqual([{ path: 'password', message: 'password is required for visibility password' }]);

    const changed = await call(token, 'PATCH', `/collections/${c.id}`, { visibility: 'password', password: 'secret-1' });
    expect(CollectionResponseSchema.parse(await changed.json()).collection).toMatchObject({ title: 'Shoot', description: 'Day one', visibility: 'password' });
    const publicAgain = CollectionResponseSchema.parse(
      await (await call(token, 'PATCH', `/collections/${c.id}`, { visibility: 'public', description: null })).json(),
    );
    expect(publicAgain.collection).toMatchObject({ visibility: 'public', description: null, title: 'Shoot' });
    // The password stays set, so going back to password needs none.
    expect((await call(token, 'PATCH', `/collections/${c.id}`, { visibility: 'password' })).status).toBe(200);
    const stray = await errorOf(await call(token, 'PATCH', `/collections/${c.id}`, { visibility: 'private', password: 'x-1234' }), 400);
    expect(stray.details.fields).toEqual([{ path: 'password', message: 'password is only for visibility password' }]);
  });

  it("lists each cover's preview at a signed URL once the worker has made it", async () => {
    const { token } = await paidKey();
    const api = collectionsApi(server, token);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .png()
      .toBuffer();
    const c = await create(token, { title: 'With cover' });
    const [imageId] = await api.upload(c.id, [{ name: 'cover.png', bytes: png, mimeType: 'image/png' }]);
    expect((await call(token, 'PATCH', `/collections/${c.id}`, { coverFileId: imageId })).status).toBe(200);
    const listed = async () => CollectionListSchema.parse(await (await call(token, 'GET', '/collections')).json()).collections[0]!;

    // The upload's own nudge may be making the preview at this moment: wait for it rather than race it.
    await previewsSettled(server, c.id);
    const { coverUrl } = await listed();
    expect(coverUrl).toMatch(new RegExp(`^${server.services.config.PUBLIC_URL}/thumb/`));
    const preview = await server.fetch(pathOf(coverUrl!));
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');

    // An image the worker could not read has no preview: the grid shows its placeholder.
    await server.services.db.update(files).set({ thumbnailState: 'failed', thumbnailKey: null }).where(eq(files.id, imageId!));
    expect(await listed()).toMatchObject({ coverFileId: imageId, coverUrl: null, fileCount: 1, sizeBytes: png.length });
    expect((await call(token, 'PATCH', `/collections/${c.id}`, { coverFileId: null })).status).toBe(200);
    expect(await listed()).toMatchObject({ coverFileId: null, coverUrl: null, fileCount: 1 });
  });

  it('names the field for bad input', async () => {
    const { token } = await paidKey();
    for (const [body, path] of [
      [{}, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ title: 'ok', visibility: 'secret' }, 'visibility'],
      [{ title: 'bad\u0007bell' }, 'title'],
      [{ title: 'ok', description: 'x'.repeat(2001) }, 'description'],
    ] as const) {
      const error = await errorOf(await call(token, 'POST', '/collections', body), 400);
      expect(error.code).toBe('invalid_request');
      expect(error.details.fields).toEqual([expect.objectContaining({ path })]);
    }
  });

  it("deletes a collection; another workspace's collection is simply not found", async () => {
    const { token } = await paidKey();
    const other = await paidKey();
    const c = await create(token, { title: 'Mine' });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { title: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await call(other.token, method, `/collections/${c.id}`, body)).status).toBe(404);
    }
    expect(await (await call(token, 'DELETE', `/collections/${c.id}`)).json()).toEqual({ deleted: true });
    expect((await call(token, 'GET', `/collections/${c.id}`)).status).toBe(404);
    expect((await call(token, 'DELETE', `/collections/${c.id}`)).status).toBe(404);
  });

  it('is a paid feature: 402 on a free workspace and after the plan lapses, working again after renewal', async () => {
    const free = await server.createWorkspace();
    const freeToken = await free.createKey(['collections:read']);
    expect((await errorOf(await call(freeToken, 'GET', '/collections'), 402)).code).toBe('upgrade_required');

    const { ws, token } = await paidKey();
    const c = await create(token, { title: 'Kept' });
    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 60_000));
    server.clock.advance(61_000);
    expect((await errorOf(await call(token, 'GET', `/collections/${c.id}`), 402)).code).toBe('upgrade_required');
    await server.setPlan(ws.id, 'paid', null);
    expect((await call(token, 'GET', `/collections/${c.id}`)).status).toBe(200);
  });
});
