// @module-tag scale-out — downloads stream from the configured storage
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { downloadSessions, downloads, events, transfers } from '../db/schema/index.js';
import { ApiError } from '../core/errors.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { createOwnerDownloadLinks } from './download-links.js';
import { downloadUrl } from '../downloads/links.js';
import { STORED_CHECKS_AT_ONCE } from '../downloads/serve.js';
import { download, pathOf, reloadTransfer, seedTransfer, startSession, type SeededTransfer } from '../test/transfers.js';

const run = promisify(execFile);

let server: TestServer;
let seeded: SeededTransfer;
const report = randomBytes(300_000);
const photo = randomBytes(70_001);
const notes = Buffer.from('hello, recipient\n');

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seedTransfer(server, {
    title: 'Q1 "final" / report',
    files: [
      { name: 'Überweisung €.pdf', data: report, mimeType: 'application/pdf' },
      { name: 'photo.jpg', path: 'pics/2026', data: photo, mimeType: 'image/jpeg' },
      { name: 'notes.html', data: notes, mimeType: 'text/html' },
      { name: 'partial.bin', data: randomBytes(1000), state: 'uploading' },
    ],
  });
});
afterAll(async () => {
  await server?.stop();
});

const ownerLinks = () => createOwnerDownloadLinks(server.services, seeded.transfer);

describe('owner download links', () => {
  it('lists the complete files and the zip, in the contract shape', async () => {
    const links = await ownerLinks();
    expect(DownloadLinksSchema.parse(links)).toEqual(links);
    expect(links.files.map((f) => [f.name, f.path, f.sizeBytes])).toEqual([
      ['Überweisung €.pdf', null, report.length],
      ['photo.jpg', 'pics/2026', photo.length],
      ['notes.html', null, notes.length],
    ]);
    expect(links.files[0]!.crc32).toMatch(/^[0-9a-f]{8}$/);
    expect(links.zip.name).toBe('Q1 final - report.zip');
    expect(new Date(links.expiresAt).getTime()).toBe(server.clock.now().getTime() + 3600_000);
  });

  it('downloads a file with the right bytes and headers, without receipts or counting', async () => {
    const links = await ownerLinks();
    const { res, body } = await download(server, links.files[0]!.url);
    expect(res.status).toBe(200);
    expect(body.equals(report)).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(report.length));
    // fetch asks for gzip and brotli; file bytes are sent as stored all the same.
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe(`"${links.files[0]!.fileId}-${links.files[0]!.crc32}-${report.length}"`);
    expect(res.headers.get('last-modified')).toBe(seeded.files[0]!.completedAt!.toUTCString());
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Uberweisung _.pdf"; filename*=UTF-8''%C3%9Cberweisung%20%E2%82%AC.pdf`,
    );
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store');

    const [t] = await server.services.db.select().from(transfers).where(eq(transfers.id, seeded.transfer.id));
    expect(t!.downloadCount).toBe(0);
    const [n] = await server.services.db.select({ n: count() }).from(downloads).where(eq(downloads.transferId, seeded.transfer.id));
    expect(n!.n).toBe(0);
  });

  it('serves uploaded HTML as an attachment that cannot run', async () => {
    const { res, body } = await download(server, (await ownerLinks()).files[2]!.url);
    expect(body.equals(notes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('refuses an end-to-end encrypted transfer', async () => {
    const e2ee = await seedTransfer(server, { e2ee: true, files: [{ name: 'sealed', data: randomBytes(10) }] });
    const err = await createOwnerDownloadLinks(server.services, e2ee.transfer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('e2ee_unsupported');
    expect((err as ApiError).status).toBe(409);
  });
});

describe('ranges', () => {
  it('resumes a file: the first half, then the rest with If-Range', async () => {
    const url = (await ownerLinks()).files[0]!.url;
    const half = Math.floor(report.length / 2);
    const first = await download(server, url, { headers: { range: `bytes=0-${half - 1}` } });
    expect(first.res.status).toBe(206);
    expect(first.res.headers.get('content-range')).toBe(`bytes 0-${half - 1}/${report.length}`);
    expect(first.res.headers.get('content-length')).toBe(String(half));
    const etag = first.res.headers.get('etag')!;
    const rest = await download(server, url, { headers: { range: `bytes=${half}-`, 'if-range': etag } });
    expect(rest.res.status).toBe(206);
    expect(rest.res.headers.get('content-range')).toBe(`bytes ${half}-${report.length - 1}/${report.length}`);
    expect(Buffer.concat([first.body, rest.body]).equals(report)).toBe(true);
  });

  it('answers a stale If-Range with the whole file, a suffix range with the tail, and 416 past the end', async () => {
    const url = (await ownerLinks()).files[1]!.url;
    const stale = await download(server, url, { headers: { range: 'bytes=100-', 'if-range': '"something-else"' } });
    expect(stale.res.status).toBe(200);
    expect(stale.body.equals(photo)).toBe(true);

    const byDate = await download(server, url, { headers: { range: 'bytes=100-', 'if-range': seeded.files[1]!.completedAt!.toUTCString() } });
    expect(byDate.res.status).toBe(206);
    expect(byDate.body.equals(photo.subarray(100))).toBe(true);

    const tail = await download(server, url, { headers: { range: 'bytes=-100' } });
    expect(tail.res.status).toBe(206);
    expect(tail.res.headers.get('content-range')).toBe(`bytes ${photo.length - 100}-${photo.length - 1}/${photo.length}`);
    expect(tail.body.equals(photo.subarray(photo.length - 100))).toBe(true);

    const past = await server.fetch(pathOf(url), { headers: { range: `bytes=${photo.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${photo.length}`);
    expect(((await past.json()) as { error: { code: string } }).error.code).toBe('range_not_satisfiable');

    const several = await download(server, url, { headers: { range: 'bytes=0-1,5-6' } });
    expect(several.res.status).toBe(200);
    expect(several.body.length).toBe(photo.length);
  });

  it('answers HEAD with the headers only', async () => {
    const url = (await ownerLinks()).files[1]!.url;
    const res = await server.fetch(pathOf(url), { method: 'HEAD', headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.headers.get('content-range')).toBe(`bytes 10-19/${photo.length}`);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('the zip', () => {
  it('downloads whole: a valid archive with folders from paths, and an exact Content-Length', async () => {
    const links = await ownerLinks();
    const { res, body } = await download(server, links.zip.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBe(links.zip.sizeBytes);
    expect(res.headers.get('content-disposition')).toContain(`filename="Q1 final - report.zip"`);

    const file = path.join(server.dataDir, 'whole.zip');
    await fs.writeFile(file, body);
    const test = await run('unzip', ['-t', file]);
    expect(test.stdout).toContain('No errors detected');
    const listing = await run('python3', [
      '-c',
      `import sys, zipfile, json, hashlib
z = zipfile.ZipFile(sys.argv[1])
print(json.dumps([[i.filename, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()]))`,
      file,
    ]);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(JSON.parse(listing.stdout)).toEqual([
      ['Überweisung €.pdf', sha(report)],
      ['pics/2026/photo.jpg', sha(photo)],
      ['notes.html', sha(notes)],
    ]);
  });

  it('resumes: half, then the rest with Range and If-Range, identical to the whole; the same bytes every time', async () => {
    const links = await ownerLinks();
    const whole = (await download(server, links.zip.url)).body;
    const half = Math.floor(whole.length / 2) + 7;
    const first = await download(server, links.zip.url, { headers: { range: `bytes=0-${half - 1}` } });
    expect(first.res.status).toBe(206);
    const rest = await download(server, links.zip.url, { headers: { range: `bytes=${half}-`, 'if-range': first.res.headers.get('etag')! } });
    expect(rest.res.status).toBe(206);
    expect(rest.res.headers.get('content-length')).toBe(String(rest.body.length));
    expect(Buffer.concat([first.body, rest.body]).equals(whole)).toBe(true);
    // A later link (another token) serves the very same archive and tag.
    const again = await download(server, (await ownerLinks()).zip.url);
    expect(again.body.equals(whole)).toBe(true);
    expect(again.res.headers.get('etag')).toBe(first.res.headers.get('etag'));
    expect(again.res.headers.get('etag')).toMatch(/^"zip-[A-Za-z0-9_-]{32}"$/);
  });

  it('checks a zip of many files in storage a few at a time, not all at once (memory, and HEAD bursts on S3)', async () => {
    const many = await seedTransfer(server, { files: Array.from({ length: 60 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from(`file ${i}\n`) })) });
    const storage = server.services.storage;
    const realSize = storage.size;
    let inFlight = 0;
    let most = 0;
    // Counts the calls in flight; every answer is the real storage's.
    storage.size = async (key) => {
      most = Math.max(most, ++inFlight);
      try {
        return await realSize.call(storage, key);
      } finally {
        inFlight--;
      }
    };
    try {
      const links = await createOwnerDownloadLinks(server.services, many.transfer);
      const { res, body } = await download(server, links.zip.url);
      expect(res.status).toBe(200);
      expect(body.length).toBe(links.zip.sizeBytes);
    } finally {
      storage.size = realSize;
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(STORED_CHECKS_AT_ONCE);
  });
});

describe('refusals', () => {
  it('404s a tampered token, in the Error shape', async () => {
    const url = (await ownerLinks()).files[0]!.url;
    const token = url.slice(url.lastIndexOf('/') + 1);
    const [body, sig] = token.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [`${flip(body, 10)}.${sig}`, `${body}.${flip(sig, 0)}`, 'garbage', `${body}.`]) {
      const res = await server.fetch(`/dl/${bad}`);
      expect(res.status).toBe(404);
      const error = await errorOf(res);
      expect(error.code).toBe('not_found');
      expect(error.docs).toContain('#not_found');
    }
  });

  it('410s an expired link, and any link once the transfer expired or was revoked', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.txt', data: Buffer.from('a') }] });
    const stale = downloadUrl(server.services, { ownerKind: 'transfer', ownerId: t.transfer.id, fileId: t.files[0]!.id, sessionId: null, within: null, expiresAt: new Date(server.clock.now().getTime() - 1) });
    const res = await server.fetch(pathOf(stale));
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toMatchObject({ code: 'link_unavailable', details: { reason: 'expired' } });

    const session = await startSession(server, t.transfer.slug);
    await server.services.db.update(transfers).set({ status: 'removed' }).where(eq(transfers.id, t.transfer.id));
    const revoked = await server.fetch(pathOf(session.files[0]!.url));
    expect(revoked.status).toBe(410);
    expect(await errorOf(revoked)).toMatchObject({ code: 'link_unavailable', details: { reason: 'revoked' } });
  });

  it('410s links when the clock passes the transfer expiry', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.txt', data: Buffer.from('a') }], expiresInMs: 10 * 3600_000 });
    const session = await startSession(server, t.transfer.slug);
    expect(new Date(session.expiresAt).getTime()).toBe(t.transfer.expiresAt.getTime());
    const owner = await createOwnerDownloadLinks(server.services, await reloadTransfer(server, t.transfer.id));
    expect((await download(server, session.files[0]!.url)).res.status).toBe(200);
    const clock = server.clock.now();
    try {
      server.clock.advance(10 * 3600_000 + 1);
      for (const url of [session.files[0]!.url, owner.files[0]!.url]) {
        const res = await server.fetch(pathOf(url));
        expect(res.status).toBe(410);
        expect((await errorOf(res)).code).toBe('link_unavailable');
      }
    } finally {
      server.clock.set(clock);
    }
  });

  it('does not serve a file of another transfer with this transfer’s token, nor unfinished files', async () => {
    const other = await seedTransfer(server, { files: [{ name: 'b.txt', data: Buffer.from('b') }] });
    const forged = downloadUrl(server.services, { ownerKind: 'transfer', ownerId: seeded.transfer.id, fileId: other.files[0]!.id, sessionId: null, within: null, expiresAt: new Date(server.clock.now().getTime() + 60_000) });
    expect((await server.fetch(pathOf(forged))).status).toBe(404);
    const unfinished = downloadUrl(server.services, { ownerKind: 'transfer', ownerId: seeded.transfer.id, fileId: seeded.files[3]!.id, sessionId: null, within: null, expiresAt: new Date(server.clock.now().getTime() + 60_000) });
    expect((await server.fetch(pathOf(unfinished))).status).toBe(404);
  });

  it('a session token does not work on another transfer’s session', async () => {
    const other = await seedTransfer(server, { files: [{ name: 'c.txt', data: Buffer.from('c') }] });
    const session = await startSession(server, other.transfer.slug);
    const forged = downloadUrl(server.services, { ownerKind: 'transfer', ownerId: seeded.transfer.id, fileId: seeded.files[0]!.id, sessionId: session.sessionId, within: null, expiresAt: new Date(server.clock.now().getTime() + 60_000) });
    expect((await server.fetch(pathOf(forged))).status).toBe(404);
    const [n] = await server.services.db.select({ n: count() }).from(downloadSessions).where(eq(downloadSessions.transferId, seeded.transfer.id));
    expect(n!.n).toBe(0);
    const [e] = await server.services.db.select({ n: count() }).from(events).where(eq(events.subjectId, seeded.transfer.id));
    expect(e!.n).toBe(0);
  });
});
