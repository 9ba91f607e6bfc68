// @module-tag scale-out — downloads stream from the configured storage
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { downloads } from '../db/schema/index.js';
import { contentDisposition } from '../downloads/http.js';
import { s3ForTest, startTestServer, type TestServer } from '../test/harness.js';
import { endTransfer } from './end.js';
import { download, reloadTransfer, seedTransfer, startSession, type SeededTransfer } from '../test/transfers.js';

/**
 * S3_PRESIGNED_DOWNLOADS: the server still decides (the link, the visit, the count, the limit)
 * and then hands a file's bytes off to the bucket with a short-lived presigned URL.
 */

let s3: Awaited<ReturnType<typeof s3ForTest>>;
let server: TestServer;
let seeded: SeededTransfer;
const report = randomBytes(200_000);
const notes = Buffer.from('plain notes\n');

beforeAll(async () => {
  s3 = await s3ForTest();
  server = await startTestServer({ ...s3.env, S3_PRESIGNED_DOWNLOADS: '1' });
  seeded = await seedTransfer(server, {
    files: [
      { name: 'Report "Q1" €.pdf', data: report, mimeType: 'application/pdf' },
      { name: 'notes.txt', data: notes, mimeType: 'text/plain' },
    ],
    maxDownloads: 1,
  });
});
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

it("counts the visit, then redirects a file to the bucket with the same name and type; ranges come from the bucket; the zip still streams", async () => {
  const visit = await startSession(server, seeded.transfer.slug);
  const { res } = await download(server, visit.files[0]!.url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  const location = res.headers.get('location')!;
  expect(location.startsWith(s3.env.S3_ENDPOINT!)).toBe(true);
  expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');

  // The visit counted and its receipt exists, before a byte left the bucket.
  expect((await reloadTransfer(server, seeded.transfer.id)).downloadCount).toBe(1);
  const receipts = await server.services.db.select().from(downloads).where(eq(downloads.transferId, seeded.transfer.id));
  expect(receipts.map((r) => r.fileName)).toEqual(['Report "Q1" €.pdf']);

  const whole = await fetch(location);
  expect(whole.status).toBe(200);
  expect(Buffer.from(await whole.arrayBuffer()).equals(report)).toBe(true);
  expect(whole.headers.get('content-type')).toBe('application/pdf');
  // The bucket answers with the very header /dl would have sent: an attachment, never rendered.
  expect(whole.headers.get('content-disposition')).toBe(contentDisposition('Report "Q1" €.pdf'));
  expect(whole.headers.get('content-disposition')).toMatch(/^attachment; /);
  const part = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(report.subarray(1000, 2000))).toBe(true);

  // The same visit may go on after the limit is reached; the zip is laid out by the server.
  const zip = await download(server, visit.zip!.url, { redirect: 'manual' });
  expect(zip.res.status).toBe(200);
  expect(zip.res.headers.get('content-type')).toBe('application/zip');
  expect(zip.body.indexOf(notes)).toBeGreaterThan(0);

  // Another visit is past the limit: refused by the server, never redirected.
  const second = await server.fetch(`/api/public/transfers/${seeded.transfer.slug}/sessions`, { method: 'POST', json: {} });
  expect(second.status).toBe(410);
  expect(((await second.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('limit_reached');
});

it('refuses a revoked transfer at the server: no redirect, no URL', async () => {
  const other = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(1000) }] });
  const visit = await startSession(server, other.transfer.slug);
  await endTransfer(server.services, other.transfer.id, 'revoked');
  const { res } = await download(server, visit.files[0]!.url, { redirect: 'manual' });
  expect(res.status).toBe(410);
  expect(res.headers.get('location')).toBeNull();
});

it('serves a preview inside a page itself (a player, a bounded range a script asks for): the page may not load from the bucket', async () => {
  const unlimited = await seedTransfer(server, { files: [{ name: 'notes.txt', data: notes, mimeType: 'text/plain' }] });
  const visit = await startSession(server, unlimited.transfer.slug);
  const url = visit.files[0]!.url;
  const asked: Record<string, string>[] = [{ 'sec-fetch-dest': 'video', range: 'bytes=0-' }, { 'sec-fetch-dest': 'audio' }, { 'sec-fetch-dest': 'empty', range: 'bytes=0-5' }];
  for (const headers of asked) {
    const { res, body } = await download(server, url, { redirect: 'manual', headers });
    expect([JSON.stringify(headers), res.status]).toEqual([JSON.stringify(headers), headers.range ? 206 : 200]);
    expect(body.equals(headers.range === 'bytes=0-5' ? notes.subarray(0, 6) : notes)).toBe(true);
  }
  // A download by a page's script reading to the end, or by the browser itself, still goes to the bucket.
  const downloads: Record<string, string>[] = [{ 'sec-fetch-dest': 'empty', range: 'bytes=0-' }, { 'sec-fetch-dest': 'document' }];
  for (const headers of downloads) {
    expect((await download(server, url, { redirect: 'manual', headers })).res.status).toBe(302);
  }
});
