import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadSessions, downloads, events, transferRecipients } from '../db/schema/index.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { VISIT_HEADER } from '../../contract/public.js';
import { VISIT_TTL_MS } from './shared-link.js';
import { download, pathOf, reloadTransfer, seedTransfer, startSession } from '../test/transfers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const receiptsOf = (transferId: string) =>
  server.services.db.select().from(downloads).where(eq(downloads.transferId, transferId)).orderBy(asc(downloads.createdAt), asc(downloads.id));
const eventsOf = (transferId: string) => server.services.db.select().from(events).where(eq(events.subjectId, transferId));

/** Reads the first chunk of a response, then goes away. */
async function readSomeAndAbort(url: string): Promise<number> {
  const controller = new AbortController();
  const res = await server.fetch(pathOf(url), { signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return value?.length ?? 0;
}

describe('receipts and counting', () => {
  it('one visit: a whole file and half a zip give two receipts, one count and one event; resuming adds nothing', async () => {
    const data = randomBytes(50_000);
    const t = await seedTransfer(server, { title: 'Plans', files: [{ name: 'plan.pdf', data }, { name: 'b.bin', data: randomBytes(20_000) }] });
    const session = await startSession(server, t.transfer.slug);
    expect(await receiptsOf(t.transfer.id)).toEqual([]);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(0);

    const file = await download(server, session.files[0]!.url);
    expect(file.body.equals(data)).toBe(true);
    server.clock.advance(1000);
    const zipHead = await download(server, session.zip!.url, { headers: { range: 'bytes=0-999' } });
    expect(zipHead.res.status).toBe(206);

    // completedAt lands just after the last byte left the server, which may be after the client saw it.
    await expect.poll(async () => (await receiptsOf(t.transfer.id))[0]?.completedAt ?? null).not.toBeNull();
    let rows = await receiptsOf(t.transfer.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.sessionId, r.fileId, r.fileName, r.recipientEmail])).toEqual([
      [session.sessionId, t.files[0]!.id, 'plan.pdf', null],
      [session.sessionId, null, null, null],
    ]);
    expect(rows[0]!.completedAt).not.toBeNull();
    expect(rows[1]!.completedAt).toBeNull();
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);

    // The same file again in the same visit, resumed with a range: no new receipt, no new count.
    const again = await download(server, session.files[0]!.url, { headers: { range: 'bytes=100-' } });
    expect(again.res.status).toBe(206);
    rows = await receiptsOf(t.transfer.id);
    expect(rows).toHaveLength(2);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);

    const evts = await eventsOf(t.transfer.id);
    expect(evts).toHaveLength(1);
    expect(evts[0]!.type).toBe('transfer.downloaded');
    expect(evts[0]!.data).toEqual({
      transfer: {
        id: t.transfer.id,
        title: 'Plans',
        url: `${server.services.config.PUBLIC_URL}/t/${t.transfer.slug}`,
        expiresAt: t.transfer.expiresAt.toISOString(),
        downloadCount: 1,
      },
      download: { sessionId: session.sessionId, recipient: null },
    });
    const [s] = await server.services.db.select().from(downloadSessions).where(eq(downloadSessions.id, session.sessionId));
    expect(s!.countedAt).not.toBeNull();

    // The rest of the zip completes its receipt.
    await download(server, session.zip!.url, { headers: { range: 'bytes=1000-', 'if-range': zipHead.res.headers.get('etag')! } });
    await expect.poll(async () => (await receiptsOf(t.transfer.id))[1]?.completedAt ?? null).not.toBeNull();
    expect(await receiptsOf(t.transfer.id)).toHaveLength(2);

    // HEAD neither counts nor creates receipts; a second visit counts again.
    const second = await startSession(server, t.transfer.slug);
    expect((await server.fetch(pathOf(second.files[1]!.url), { method: 'HEAD' })).status).toBe(200);
    expect(await receiptsOf(t.transfer.id)).toHaveLength(2);
    await download(server, second.files[1]!.url);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(2);
    expect(await eventsOf(t.transfer.id)).toHaveLength(2);
  });

  it('a download that stops partway keeps completedAt null', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'big.bin', data: randomBytes(24 * 1024 * 1024) }] });
    const session = await startSession(server, t.transfer.slug);
    expect(await readSomeAndAbort(session.files[0]!.url)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const rows = await receiptsOf(t.transfer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.completedAt).toBeNull();
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
  });

  it('a personal link attributes the visit to its recipient; an unknown r is ignored', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'x.txt', data: Buffer.from('x') }], recipients: ['ana@example.test', 'bo@example.test'] });
    const session = await startSession(server, t.transfer.slug, { recipientToken: t.recipientTokens.get('ana@example.test')! });
    await download(server, session.files[0]!.url);
    const [receipt] = await receiptsOf(t.transfer.id);
    expect(receipt!.recipientEmail).toBe('ana@example.test');
    const recipients = await server.services.db.select().from(transferRecipients).where(eq(transferRecipients.transferId, t.transfer.id));
    expect(recipients.find((r) => r.email === 'ana@example.test')!.downloadedAt).not.toBeNull();
    expect(recipients.find((r) => r.email === 'bo@example.test')!.downloadedAt).toBeNull();
    const [evt] = await eventsOf(t.transfer.id);
    expect((evt!.data as { download: unknown }).download).toEqual({ sessionId: session.sessionId, recipient: 'ana@example.test' });

    // A token of another transfer's recipient, or a made-up one, opens an anonymous visit.
    const other = await seedTransfer(server, { files: [{ name: 'y.txt', data: Buffer.from('y') }], recipients: ['cy@example.test'] });
    for (const token of [other.recipientTokens.get('cy@example.test')!, 'not-a-token']) {
      const anon = await startSession(server, t.transfer.slug, { recipientToken: token });
      const [s] = await server.services.db.select().from(downloadSessions).where(eq(downloadSessions.id, anon.sessionId));
      expect(s!.recipientId).toBeNull();
    }
  });

  it('maxDownloads 1: the first visit downloads everything, the second is refused', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('aaa') }, { name: 'b', data: Buffer.from('bbb') }], maxDownloads: 1 });
    const first = await startSession(server, t.transfer.slug);
    const second = await startSession(server, t.transfer.slug);
    expect((await download(server, first.files[0]!.url)).res.status).toBe(200);

    const refused = await server.fetch(pathOf(second.files[0]!.url));
    expect(refused.status).toBe(410);
    expect(await errorOf(refused)).toMatchObject({ code: 'link_unavailable', details: { reason: 'limit_reached' } });
    // The visit that counted goes on: its other file and the zip still download.
    expect((await download(server, first.files[1]!.url)).body.toString()).toBe('bbb');
    expect((await download(server, first.zip!.url)).res.status).toBe(200);

    const page = await server.fetch(`/api/public/transfers/${t.transfer.slug}`);
    expect(page.status).toBe(410);
    expect(await errorOf(page)).toMatchObject({ code: 'link_unavailable', details: { reason: 'limit_reached' } });
    expect((await server.fetch(`/api/public/transfers/${t.transfer.slug}/sessions`, { method: 'POST', json: {} })).status).toBe(410);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    expect(await eventsOf(t.transfer.id)).toHaveLength(1);
  });

  it('maxDownloads 1 is one visit on every path: a visit through POST /links/resolve counts like the page, takes every file, the zip and a resumed range, and closes every other way in; the owner never counts', async () => {
    const a = randomBytes(40_000);
    const workspace = await server.createWorkspace();
    const key = await workspace.createKey(['transfers:read'], 'owner and resolver');
    const t = await seedTransfer(server, { workspaceId: workspace.id, files: [{ name: 'a.bin', data: a }, { name: 'b.txt', data: Buffer.from('bbb') }], maxDownloads: 1 });
    const link = `${server.services.config.PUBLIC_URL}/t/${t.transfer.slug}`;
    const resolve = () => server.fetch('/api/v1/links/resolve', { method: 'POST', token: key, json: { url: link } });

    // A page visit opened before the limit is used up, which has not started a download yet.
    const idlePageVisit = await startSession(server, t.transfer.slug);
    const resolved = await resolve();
    expect(resolved.status).toBe(200);
    const visit = (await resolved.json()) as { files: { url: string }[]; zip: { url: string } };
    // Opening a visit is not a download: nothing is counted until it starts one.
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(0);

    const half = await download(server, visit.files[0]!.url, { headers: { range: 'bytes=0-19999' } });
    expect(half.res.status).toBe(206);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    // The same visit: the rest of the file (a resumed Range request), its other file and the zip.
    const rest = await download(server, visit.files[0]!.url, { headers: { range: 'bytes=20000-' } });
    expect(rest.res.status).toBe(206);
    expect(Buffer.concat([half.body, rest.body]).equals(a)).toBe(true);
    expect((await download(server, visit.files[1]!.url)).body.toString()).toBe('bbb');
    expect((await download(server, visit.zip.url)).res.status).toBe(200);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    expect(await eventsOf(t.transfer.id)).toHaveLength(1);
    expect(new Set((await receiptsOf(t.transfer.id)).map((r) => r.sessionId)).size).toBe(1);

    // Any other visit is a second download: refused on the page, through the API, and for the visit that had not started.
    for (const refused of [
      await server.fetch(pathOf(idlePageVisit.files[1]!.url)),
      await server.fetch(pathOf(idlePageVisit.zip!.url), { headers: { range: 'bytes=0-9' } }),
      await server.fetch(`/api/public/transfers/${t.transfer.slug}`),
      await server.fetch(`/api/public/transfers/${t.transfer.slug}/sessions`, { method: 'POST', json: {} }),
      await resolve(),
    ]) {
      expect(refused.status).toBe(410);
      expect(await errorOf(refused)).toMatchObject({ code: 'link_unavailable', details: { reason: 'limit_reached' } });
    }

    // The owner's own downloads still work and are not counted.
    const own = await server.fetch(`/api/v1/transfers/${t.transfer.id}/download-links`, { token: key });
    expect(own.status).toBe(200);
    const ownLinks = (await own.json()) as { files: { url: string }[] };
    expect((await download(server, ownLinks.files[1]!.url)).body.toString()).toBe('bbb');
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    expect(await receiptsOf(t.transfer.id)).toHaveLength(3);
  });

  it('a visit that counted may read its transfer again after the limit (the page polls while files are scanned); no other visit may', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('aaa') }, { name: 'b', data: Buffer.from('bbb') }], maxDownloads: 1 });
    const counted = await startSession(server, t.transfer.slug);
    const idle = await startSession(server, t.transfer.slug);
    expect((await download(server, counted.files[0]!.url)).res.status).toBe(200);
    const page = (visit?: string) => server.fetch(`/api/public/transfers/${t.transfer.slug}`, { headers: visit === undefined ? {} : { [VISIT_HEADER]: visit } });

    const own = await page(counted.sessionId);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { files: unknown[] }).files).toHaveLength(2);
    for (const other of [undefined, idle.sessionId, 'dls_madeUp', `${counted.sessionId}x`]) {
      const refused = await page(other);
      expect(refused.status).toBe(410);
      expect(await errorOf(refused)).toMatchObject({ code: 'link_unavailable', details: { reason: 'limit_reached' } });
    }
    // A visit of another transfer names nothing here.
    const elsewhere = await seedTransfer(server, { files: [{ name: 'c', data: Buffer.from('c') }] });
    const foreign = await startSession(server, elsewhere.transfer.slug);
    await download(server, foreign.files[0]!.url);
    expect((await page(foreign.sessionId)).status).toBe(410);
    // Once its links have expired, the visit is over: the page is refused like any other.
    server.clock.advance(VISIT_TTL_MS + 1);
    expect((await page(counted.sessionId)).status).toBe(410);
  });

  it('visits racing for the last downloads: exactly maxDownloads of them win', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: randomBytes(1000) }], maxDownloads: 3 });
    const sessions = await Promise.all(Array.from({ length: 8 }, () => startSession(server, t.transfer.slug)));
    const statuses = await Promise.all(sessions.map(async (s) => (await download(server, s.files[0]!.url)).res.status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(5);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(3);
    expect(await eventsOf(t.transfer.id)).toHaveLength(3);
  });

  it('parallel requests of one visit count once and share one receipt per file', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: randomBytes(10_000) }] });
    const s = await startSession(server, t.transfer.slug);
    await Promise.all(Array.from({ length: 6 }, (_, i) => download(server, s.files[0]!.url, { headers: { range: `bytes=${i * 1000}-` } })));
    expect(await receiptsOf(t.transfer.id)).toHaveLength(1);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    expect(await eventsOf(t.transfer.id)).toHaveLength(1);
  });
});
