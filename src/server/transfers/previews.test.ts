// @module-tag scale-out — downloads stream from the configured storage
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicTransferSchema } from '../../contract/public.js';
import { downloads, files as storedFiles, transfers } from '../db/schema/index.js';
import { pathOf, reloadTransfer, seedTransfer } from '../test/transfers.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { endTransfer } from './end.js';
import { makeDueThumbnails } from '../thumbnails/thumbnails.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** A 1600 × 1200 photo as a phone stores it: turned by its EXIF orientation (6: rotate 90°), with a GPS position and a camera note. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'PhoneCo', ImageDescription: 'secret place' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
    .toBuffer();
}

async function publicFiles(slug: string) {
  const res = await server.fetch(`/api/public/transfers/${slug}`);
  expect(res.status).toBe(200);
  return PublicTransferSchema.parse(await res.json()).files;
}

describe('image previews', () => {
  it('makes an upright WebP of at most 480 px without metadata, and marks what cannot be read as failed', async () => {
    const t = await seedTransfer(server, {
      files: [
        { name: 'photo.jpg', data: await phonePhoto(), mimeType: 'image/jpeg' },
        { name: 'broken.png', data: Buffer.from('not a png at all'), mimeType: 'image/png' },
        { name: 'small.png', data: await sharp({ create: { width: 40, height: 30, channels: 4, background: '#00ff00' } }).png().toBuffer(), mimeType: 'image/png' },
        { name: 'notes.txt', data: Buffer.from('hello'), mimeType: 'text/plain' },
      ],
    });
    expect(await makeDueThumbnails(server.services)).toBeGreaterThanOrEqual(3);
    const rows = await server.services.db.select().from(storedFiles).where(eq(storedFiles.ownerId, t.transfer.id)).orderBy(storedFiles.seq);
    const state = (name: string) => rows.find((r) => r.name === name)!.thumbnailState;
    expect([state('photo.jpg'), state('broken.png'), state('small.png'), state('notes.txt')]).toEqual(['ready', 'failed', 'ready', null]);

    const original = await sharp(await phonePhoto()).metadata();
    expect([original.orientation, Boolean(original.exif)]).toEqual([6, true]);
    const files = await publicFiles(t.transfer.slug);
    const photo = files.find((f) => f.name === 'photo.jpg')!;
    expect(files.find((f) => f.name === 'broken.png')!.thumbnailUrl).toBeNull();
    expect(files.find((f) => f.name === 'notes.txt')!.thumbnailUrl).toBeNull();
    const res = await server.fetch(pathOf(photo.thumbnailUrl!));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    // Turned upright: the 1600 × 1200 landscape stored with orientation 6 is a portrait.
    expect([meta.width, meta.height]).toEqual([360, 480]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    // Never enlarged.
    const small = await sharp(Buffer.from(await (await server.fetch(pathOf(files.find((f) => f.name === 'small.png')!.thumbnailUrl!))).arrayBuffer())).metadata();
    expect([small.width, small.height]).toEqual([40, 30]);

    // Looking is not downloading.
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(0);
    expect(await server.services.db.select().from(downloads).where(eq(downloads.transferId, t.transfer.id))).toEqual([]);
  });

  it('refuses a tampered or expired preview link, and any once the transfer has ended', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.png', data: await sharp({ create: { width: 600, height: 600, channels: 3, background: '#123456' } }).png().toBuffer(), mimeType: 'image/png' }] });
    await makeDueThumbnails(server.services);
    const url = pathOf((await publicFiles(t.transfer.slug))[0]!.thumbnailUrl!);
    expect((await server.fetch(url)).status).toBe(200);
    expect((await server.fetch(url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).status).toBe(404);

    server.clock.advance(61 * 60_000);
    expect((await server.fetch(url)).status).toBe(410);
    const fresh = pathOf((await publicFiles(t.transfer.slug))[0]!.thumbnailUrl!);
    expect((await server.fetch(fresh)).status).toBe(200);

    await endTransfer(server.services, t.transfer.id, 'revoked');
    expect((await server.fetch(fresh)).status).toBe(410);
    const [row] = await server.services.db.select().from(storedFiles).where(eq(storedFiles.ownerId, t.transfer.id)).orderBy(storedFiles.seq);
    expect(await server.services.storage.size(row!.thumbnailKey!)).toBeNull();
  });

  it('gives a transfer at its download limit no previews', async () => {
    const t = await seedTransfer(server, { maxDownloads: 1, files: [{ name: 'a.png', data: await sharp({ create: { width: 50, height: 50, channels: 3, background: '#654321' } }).png().toBuffer(), mimeType: 'image/png' }] });
    await makeDueThumbnails(server.services);
    const url = pathOf((await publicFiles(t.transfer.slug))[0]!.thumbnailUrl!);
    await server.services.db.update(transfers).set({ downloadCount: 1 }).where(eq(transfers.id, t.transfer.id));
    expect((await server.fetch(url)).status).toBe(410);
  });
});
