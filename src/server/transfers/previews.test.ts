// @module-tag scale-out — downloads stream from the configured storage
import { eq } from 'drizzle-orm';
import sharp, { type Stats } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicTransferSchema } from '../../contract/public.js';
import { TransferSchema } from '../../contract/transfers.js';
import { downloads, files as storedFiles, transfers } from '../db/schema/index.js';
import { download, pathOf, reloadTransfer, seedTransfer } from '../test/transfers.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { endTransfer } from './end.js';
import { makeDueThumbnails } from '../thumbnails/thumbnails.js';
import { downloadUrl } from '../downloads/links.js';
import { deflatedSpaces, matroskaDeclaring, pdfOf, testTone, testVideo } from '../test/media-files.js';

let server: TestServer;
/** The server's log: why each file got no preview. */
const logLines: string[] = [];
beforeAll(async () => {
  server = await startTestServer({}, { logLines });
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
    // A text file has no picture to make: tried once, and marked so.
    expect([state('photo.jpg'), state('broken.png'), state('small.png'), state('notes.txt')]).toEqual(['ready', 'failed', 'ready', 'failed']);

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

describe('the workspace’s own previews', () => {
  it('come with the transfer’s read when asked with thumbnails=true, past the download limit too, never for an encrypted transfer', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['transfers:read']);
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#a37' } }).png().toBuffer();
    const t = await seedTransfer(server, {
      workspaceId: ws.id,
      maxDownloads: 1,
      files: [
        { name: 'a.png', data: png, mimeType: 'image/png' },
        { name: 'notes.txt', data: Buffer.from('notes'), mimeType: 'text/plain' },
      ],
    });
    await makeDueThumbnails(server.services);
    const read = async (id: string, query: string) => {
      const res = await server.fetch(`/api/v1/transfers/${id}${query}`, { token: key });
      expect(res.status, await res.clone().text()).toBe(200);
      return TransferSchema.parse(await res.json()).files;
    };
    expect((await read(t.transfer.id, '')).every((f) => !('thumbnailUrl' in f))).toBe(true);
    const [image, text] = await read(t.transfer.id, '?thumbnails=true');
    expect(text!.thumbnailUrl).toBeNull();
    const visitors = pathOf((await publicFiles(t.transfer.slug))[0]!.thumbnailUrl!);
    await server.services.db.update(transfers).set({ downloadCount: 1 }).where(eq(transfers.id, t.transfer.id));
    // The visitors' preview stops at the limit; the workspace's does not, as its download links do not.
    expect((await server.fetch(visitors)).status).toBe(410);
    const res = await server.fetch(pathOf(image!.thumbnailUrl!));
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(480);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);

    await endTransfer(server.services, t.transfer.id, 'revoked');
    expect((await read(t.transfer.id, '?thumbnails=true')).map((f) => f.thumbnailUrl)).toEqual([null, null]);

    const sealed = await seedTransfer(server, { workspaceId: ws.id, e2ee: true, files: [{ name: 'x.bin', data: png, mimeType: 'application/octet-stream' }] });
    await server.services.db.update(storedFiles).set({ thumbnailState: 'ready', thumbnailKey: 'sealed-preview' }).where(eq(storedFiles.ownerId, sealed.transfer.id));
    expect((await read(sealed.transfer.id, '?thumbnails=true')).map((f) => f.thumbnailUrl)).toEqual([null]);
    const bad = await server.fetch(`/api/v1/transfers/${t.transfer.id}?thumbnails=yes`, { token: key });
    expect(bad.status).toBe(400);
  });
});

describe('previews of videos, audio and PDFs', () => {
  /** The transfer's files by name: each file's preview state, and its preview as sharp reads it (null without one). */
  async function previewsOf(t: Awaited<ReturnType<typeof seedTransfer>>) {
    const rows = await server.services.db.select().from(storedFiles).where(eq(storedFiles.ownerId, t.transfer.id));
    const listed = await publicFiles(t.transfer.slug);
    const result = new Map<string, { state: string | null; picture: { width?: number; height?: number; format?: string; stats: Stats } | null }>();
    for (const row of rows) {
      const url = listed.find((f) => f.name === row.name)!.thumbnailUrl;
      let picture = null;
      if (url) {
        const res = await server.fetch(pathOf(url));
        expect(res.status).toBe(200);
        const bytes = Buffer.from(await res.arrayBuffer());
        picture = { ...(await sharp(bytes).metadata()), stats: await sharp(bytes).stats() };
      }
      result.set(row.name, { state: row.thumbnailState, picture });
    }
    return result;
  }

  it('makes a poster of an MP4 and a WebM, a waveform of an MP3 and the first page of a PDF, none larger than 480 px nor enlarged', async () => {
    const t = await seedTransfer(server, {
      files: [
        { name: 'clip.mp4', data: await testVideo('mp4', 3, '640x360'), mimeType: 'video/mp4' },
        { name: 'short.webm', data: await testVideo('webm', 0.5, '160x120'), mimeType: 'video/webm' },
        // A type the sender's browser did not know: the name says what it is.
        { name: 'tone.mp3', data: await testTone(), mimeType: 'application/octet-stream' },
        { name: 'deck.pdf', data: pdfOf(['First page', 'Second page']), mimeType: 'application/pdf' },
      ],
    });
    expect(await makeDueThumbnails(server.services)).toBe(4);
    const previews = await previewsOf(t);
    const size = (name: string) => {
      const p = previews.get(name)!;
      expect(p.state).toBe('ready');
      expect(p.picture!.format).toBe('webp');
      return [p.picture!.width, p.picture!.height];
    };
    expect(size('clip.mp4')).toEqual([480, 270]);
    // A half-second video has no frame a second in: its first frame, at its own size.
    expect(size('short.webm')).toEqual([160, 120]);
    expect(size('tone.mp3')).toEqual([480, 120]);
    // A US Letter page, standing.
    expect(size('deck.pdf')).toEqual([371, 480]);
    // Pictures, not blank frames: the test pattern's colours, the page's blue box on white.
    const channelSpread = (name: string) => Math.max(...previews.get(name)!.picture!.stats.channels.slice(0, 3).map((c) => c.max - c.min));
    expect(channelSpread('clip.mp4')).toBeGreaterThan(100);
    expect(channelSpread('deck.pdf')).toBeGreaterThan(100);
    expect(channelSpread('tone.mp3')).toBeGreaterThan(50);
  });

  it('fails hostile files cleanly within their limits, and their downloads are untouched', async () => {
    const mp4 = await testVideo('mp4');
    const hostile = [
      // The index (moov) of an MP4 written by ffmpeg is at its end: half the file has none.
      { name: 'truncated.mp4', data: mp4.subarray(0, Math.floor(mp4.length / 2)), mimeType: 'video/mp4' },
      { name: 'huge-frame.mkv', data: matroskaDeclaring(100_000, 100_000), mimeType: 'application/octet-stream' },
      { name: 'huge-frame.webm', data: matroskaDeclaring(100_000, 100_000), mimeType: 'video/webm' },
      { name: 'not-a.pdf', data: Buffer.from('%PDF-1.7\nthis is a text file wearing a PDF name\n'), mimeType: 'application/pdf' },
      // A playlist dressed as a video would make a careless ffmpeg fetch other addresses.
      { name: 'playlist.mp4', data: Buffer.from('#EXTM3U\n#EXTINF:1,\nhttp://127.0.0.1:9/secret.mp4\n#EXT-X-ENDLIST\n'), mimeType: 'video/mp4' },
      // Over a gigabyte of page contents in a one-megabyte file.
      { name: 'bomb.pdf', data: pdfOf(['Bomb'], [await deflatedSpaces(640)]), mimeType: 'application/pdf' },
    ];
    const many = pdfOf(Array.from({ length: 3000 }, (_, i) => `Page ${i + 1}`));
    const t = await seedTransfer(server, { files: [...hostile, { name: 'thousands.pdf', data: many, mimeType: 'application/pdf' }] });
    await makeDueThumbnails(server.services);
    const previews = await previewsOf(t);
    for (const file of hostile) expect([file.name, previews.get(file.name)!.state]).toEqual([file.name, 'failed']);
    // Each was refused for what it is, none by running into the tools' time limits (30 s for a PDF, 60 s for a video).
    const timedOut = logLines.filter((line) => line.includes('no preview for this file') && line.includes('took longer than'));
    expect(timedOut).toEqual([]);
    // Thousands of pages: only the first is drawn.
    expect(previews.get('thousands.pdf')!.state).toBe('ready');

    for (const [index, file] of hostile.entries()) {
      const url = downloadUrl(server.services, { ownerKind: 'transfer', ownerId: t.transfer.id, fileId: t.files[index]!.id, sessionId: null, within: null, expiresAt: new Date(server.clock.now().getTime() + 60_000) });
      const { res, body } = await download(server, url);
      expect([file.name, res.status, body.equals(file.data)]).toEqual([file.name, 200, true]);
    }
    // Seconds on an idle machine; more when the tools share two cores with other suites.
  }, 120_000);

  it("makes nothing of an end-to-end encrypted transfer: its sender's browser seals its own", async () => {
    const t = await seedTransfer(server, { e2ee: true, files: [{ name: 'clip.mp4', data: await testVideo('mp4'), mimeType: 'video/mp4' }] });
    await makeDueThumbnails(server.services);
    const [row] = await server.services.db.select().from(storedFiles).where(eq(storedFiles.ownerId, t.transfer.id));
    expect([row!.thumbnailState, row!.thumbnailKey]).toEqual(['failed', null]);
  });
});
