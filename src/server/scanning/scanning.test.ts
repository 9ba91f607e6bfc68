// @module-tag scale-out — scans read stored files
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema } from '../../contract/collections.js';
import { ErrorSchema } from '../../contract/errors.js';
import { MeSchema } from '../../contract/me.js';
import { PublicCollectionFilePageSchema } from '../../contract/public-collections.js';
import { PublicTransferSchema } from '../../contract/public.js';
import { CreateTransferResponseSchema, DownloadLinksSchema, TransferSchema } from '../../contract/transfers.js';
import { collectionsApi } from '../test/collections.js';
import { files } from '../db/schema/index.js';
import { importDueNow } from '../test/worker.js';
import { serveFile, TestOrigins } from '../test/import-origins.js';
import { listOutbox } from '../mail/file-mailer.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { download, seedTransfer, startSession } from '../test/transfers.js';
import { crcOf, randomFile, storedLength, tusUpload } from '../test/uploads.js';
import { parseClamdUrl } from './clamd.js';
import { claimDueScans, retryWaitSeconds, runScan, scanDueNow } from './scanner.js';
import { EICAR, EICAR_SIGNATURE, startTestClamd, type TestClamd } from '../test/clamd.js';

/**
 * Virus scanning through HTTP against a real clamd (Debian's clamav-daemon) on a loopback port,
 * with an EICAR signature of the test's own: downloads wait for the scan, an infected transfer is
 * blocked everywhere, an infected collection file is quarantined, big files stream, and a scanner
 * that goes away leaves files unavailable rather than served unscanned.
 */

let clamd: TestClamd;
let server: TestServer;
let ws: TestWorkspace;
let key: string;
const logLines: string[] = [];
const origins = new TestOrigins();

beforeAll(async () => {
  clamd = await startTestClamd();
  server = await startTestServer({ CLAMD_URL: clamd.url, SCAN_TIMEOUT_SECONDS: '5', IMPORTS_ALLOW_INSECURE: '1' }, { logLines });
  ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:read', 'transfers:write', 'collections:read', 'collections:write']);
}, 120_000);
afterAll(async () => {
  await origins.closeAll();
  await server?.stop();
  await clamd?.close();
});

const api = (method: string, path: string, json?: unknown, token = key) => server.fetch(`/api/v1${path}`, { method, token, json });
async function ok<T>(res: Response, schema: { parse(v: unknown): T }, status = 200): Promise<T> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  return schema.parse(JSON.parse(body));
}
const fileRow = async (id: string) => (await server.services.db.select().from(files).where(eq(files.id, id)))[0];

/** A draft holding these files, every byte uploaded through tus, not sent. */
async function draftWith(toSend: { name: string; bytes: Buffer }[]) {
  const created = await ok(
    await api('POST', '/transfers', { files: toSend.map((f) => ({ name: f.name, size: f.bytes.length })) }),
    CreateTransferResponseSchema,
    201,
  );
  for (const [i, target] of created.files.entries()) await tusUpload(toSend[i]!.bytes, { endpoint: `${server.url}/files/`, token: target.uploadToken });
  return { id: created.id, fileIds: created.files.map((f) => f.id) };
}

/** A sent transfer holding these files, every byte uploaded through tus. */
async function sentTransfer(toSend: { name: string; bytes: Buffer }[]) {
  const draft = await draftWith(toSend);
  const sent = await ok(await api('POST', `/transfers/${draft.id}/finalize`, {}), TransferSchema);
  return { transfer: sent, fileIds: draft.fileIds };
}

const transferOf = async (id: string) => ok(await api('GET', `/transfers/${id}`), TransferSchema);
const linksOf = async (id: string) => ok(await api('GET', `/transfers/${id}/download-links`), DownloadLinksSchema);
const publicTransfer = (slug: string) => server.fetch(`/api/public/transfers/${slug}`);

describe('a clean file', () => {
  it('waits for its scan (503 with Retry-After, "scanPending" on the page), then is clean and downloads', async () => {
    const bytes = randomFile(700_000);
    const { transfer, fileIds } = await sentTransfer([{ name: 'report.pdf', bytes }]);
    expect((await transferOf(transfer.id)).files[0]).toMatchObject({ scanResult: null, scanSignature: null });
    const page = await ok(await publicTransfer(transfer.slug), PublicTransferSchema);
    expect(page.files.map((f) => f.scanPending)).toEqual([true]);

    const links = await linksOf(transfer.id);
    const waiting = await download(server, links.files[0]!.url);
    expect(waiting.res.status).toBe(503);
    expect(Number(waiting.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ErrorSchema.parse(JSON.parse(waiting.body.toString())).error).toMatchObject({ code: 'unavailable', details: { reason: 'scan_pending' } });
    // The zip waits for every file in it.
    expect((await download(server, links.zip!.url)).res.status).toBe(503);

    expect(await scanDueNow(server.services)).toBe(1);
    expect((await transferOf(transfer.id)).files[0]).toMatchObject({ scanResult: 'clean', scanSignature: null });
    expect((await ok(await publicTransfer(transfer.slug), PublicTransferSchema)).files.map((f) => f.scanPending)).toEqual([false]);
    const served = await download(server, links.files[0]!.url);
    expect(served.res.status).toBe(200);
    expect(crcOf(served.body)).toBe(crcOf(bytes));
    expect((await fileRow(fileIds[0]!))!.scanAttempts).toBe(1);
  });

  it('is reported on /me and the health endpoint', async () => {
    const me = await ok(await api('GET', '/me'), MeSchema);
    expect(me.scanning).toEqual({ enabled: true });
    const health = (await (await server.fetch('/healthz')).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', scanner: { status: 'ok', version: expect.stringMatching(/^ClamAV /), waiting: 0, retrying: 0 } });
  });
});

describe('the EICAR test file in a transfer', () => {
  it('blocks the transfer: status infected, 410 infected on its page, its URLs and links/resolve; its bytes deleted; the owner mailed once', async () => {
    const clean = randomFile(50_000);
    const { transfer, fileIds } = await sentTransfer([
      { name: 'notes.txt', bytes: clean },
      { name: 'invoice.exe', bytes: EICAR },
    ]);
    const links = await linksOf(transfer.id);
    expect(await scanDueNow(server.services)).toBe(2);

    const blocked = await transferOf(transfer.id);
    expect(blocked.status).toBe('infected');
    const infected = blocked.files.find((f) => f.name === 'invoice.exe')!;
    expect(infected).toMatchObject({ scanResult: 'infected', scanSignature: EICAR_SIGNATURE });

    const page = await publicTransfer(transfer.slug);
    expect(page.status).toBe(410);
    expect(ErrorSchema.parse(await page.json()).error).toMatchObject({ code: 'link_unavailable', details: { reason: 'infected' } });
    for (const url of [links.files[0]!.url, links.files[1]!.url, links.zip!.url]) {
      const res = (await download(server, url)).res;
      expect(res.status, url).toBe(410);
    }
    const resolver = await (await server.createWorkspace({ plan: 'free' })).createKey(['contacts:read']);
    const resolved = await api('POST', '/links/resolve', { url: transfer.url }, resolver);
    expect(resolved.status).toBe(410);
    expect(ErrorSchema.parse(await resolved.json()).error.details).toMatchObject({ reason: 'infected' });
    // The owner's own download links are refused too.
    expect((await api('GET', `/transfers/${transfer.id}/download-links`)).status).toBe(410);

    for (const id of fileIds) expect(await storedLength(server.services, id)).toBeNull();
    // A second pass finds nothing to do and mails nobody again.
    expect(await scanDueNow(server.services)).toBe(0);
    const mail = (await listOutbox(server.dataDir, ws.id)).filter((m) => m.tag === 'transfer.infected');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('invoice.exe');
  });

  it('is found when it was imported from a URL into a draft, too, as soon as it lands', async () => {
    const o = await origins.start(serveFile(EICAR));
    const created = await ok(await api('POST', '/transfers', { files: [], imports: [{ url: `${o.url}/eicar.com` }] }), CreateTransferResponseSchema, 201);
    await importDueNow(server.services);
    expect(await scanDueNow(server.services)).toBe(1);
    const t = await transferOf(created.id);
    expect([t.status, t.finalizedAt]).toEqual(['active', null]);
    expect(t.files[0]).toMatchObject({ name: 'eicar.com', scanResult: 'infected', scanSignature: EICAR_SIGNATURE });
    const refused = await api('POST', `/transfers/${created.id}/finalize`, {});
    expect(refused.status).toBe(409);
    expect(ErrorSchema.parse(await refused.json()).error.details).toMatchObject({ reason: 'files_infected', infectedFileIds: [t.files[0]!.id] });
  });
});

describe('a draft', () => {
  it('has each complete file scanned before it is sent, and its files list shows the verdict', async () => {
    const bytes = randomFile(120_000);
    const draft = await draftWith([{ name: 'plans.pdf', bytes }]);
    expect((await transferOf(draft.id)).files[0]).toMatchObject({ scanResult: null, scanSignature: null });
    expect(await scanDueNow(server.services)).toBe(1);
    const scanned = await transferOf(draft.id);
    expect(scanned.finalizedAt).toBeNull();
    expect(scanned.files.map((f) => [f.id, f.scanResult, f.scanSignature])).toEqual([[draft.fileIds[0], 'clean', null]]);

    // Sent, it is ready at once: nothing waits for a scan.
    const sent = await ok(await api('POST', `/transfers/${draft.id}/finalize`, {}), TransferSchema);
    expect(await scanDueNow(server.services)).toBe(0);
    const page = await ok(await publicTransfer(sent.slug), PublicTransferSchema);
    expect(page.files.map((f) => f.scanPending)).toEqual([false]);
    const served = await download(server, (await linksOf(draft.id)).files[0]!.url);
    expect(served.res.status).toBe(200);
    expect(crcOf(served.body)).toBe(crcOf(bytes));
  });

  it('with the EICAR test file stays a draft: the file is marked and its bytes deleted, sending is refused naming it until it is removed', async () => {
    const mailBefore = (await listOutbox(server.dataDir, ws.id)).filter((m) => m.tag === 'transfer.infected').length;
    const clean = randomFile(40_000);
    const draft = await draftWith([
      { name: 'brief.txt', bytes: clean },
      { name: 'setup.exe', bytes: EICAR },
    ]);
    const [cleanId, eicarId] = draft.fileIds as [string, string];
    expect(await scanDueNow(server.services)).toBe(2);

    const after = await transferOf(draft.id);
    expect([after.status, after.finalizedAt]).toEqual(['active', null]);
    expect(after.files.map((f) => [f.name, f.scanResult, f.scanSignature])).toEqual([
      ['brief.txt', 'clean', null],
      ['setup.exe', 'infected', EICAR_SIGNATURE],
    ]);
    expect(await storedLength(server.services, eicarId)).toBeNull();
    expect(await storedLength(server.services, cleanId)).toBe(clean.length);
    const mail = (await listOutbox(server.dataDir, ws.id)).filter((m) => m.tag === 'transfer.infected');
    expect(mail.length - mailBefore).toBe(1);
    expect(mail.filter((m) => m.subject.includes('setup.exe')).map((m) => m.subject)).toEqual(['Malware found in setup.exe: remove it from your draft']);

    const refused = await api('POST', `/transfers/${draft.id}/finalize`, {});
    expect(refused.status).toBe(409);
    const error = ErrorSchema.parse(await refused.json()).error;
    expect(error).toMatchObject({
      code: 'conflict',
      message: '“setup.exe” contains malware and cannot be sent: remove it from the transfer, then send it.',
      details: { reason: 'files_infected', infectedFileIds: [eicarId], infectedFileNames: ['setup.exe'] },
    });
    expect((await transferOf(draft.id)).finalizedAt).toBeNull();

    expect((await api('DELETE', `/transfers/${draft.id}/files/${eicarId}`)).status).toBe(200);
    const sent = await ok(await api('POST', `/transfers/${draft.id}/finalize`, {}), TransferSchema);
    expect(sent.status).toBe('active');
    expect(sent.finalizedAt).not.toBeNull();
    expect(sent.files.map((f) => [f.name, f.scanResult])).toEqual([['brief.txt', 'clean']]);
    const served = await download(server, (await linksOf(draft.id)).files[0]!.url);
    expect(served.res.status).toBe(200);
    expect(crcOf(served.body)).toBe(crcOf(clean));
  });

  it('sent while its EICAR file is still being scanned goes out, and is blocked whole when the verdict lands', async () => {
    const draft = await draftWith([{ name: 'late.com', bytes: EICAR }]);
    // The scan is under way (claimed) when the sender presses Send.
    const [claimed] = await claimDueScans(server.services, 1);
    expect(claimed).toBe(draft.fileIds[0]);
    const sent = await ok(await api('POST', `/transfers/${draft.id}/finalize`, {}), TransferSchema);
    expect(sent.finalizedAt).not.toBeNull();
    await runScan(server.services, parseClamdUrl(clamd.url), claimed!);
    const t = await transferOf(draft.id);
    expect(t.status).toBe('infected');
    expect(t.files[0]).toMatchObject({ scanResult: 'infected', scanSignature: EICAR_SIGNATURE });
    expect((await publicTransfer(sent.slug)).status).toBe(410);
  });
});

describe('the EICAR test file in a collection', () => {
  it('is quarantined: gone from the listings, the zip and storage; the rest stays; the owner is told once', async () => {
    const collections = collectionsApi(server, key);
    const c = await collections.create({ title: 'Press kit', visibility: 'public' });
    const photo = randomFile(80_000);
    const [photoId, eicarId] = await collections.upload(c.id, [
      { name: 'photo.jpg', bytes: photo },
      { name: 'readme.com', bytes: EICAR, path: 'Extras' },
    ]);
    const before = await ok(await api('GET', `/collections/${c.id}/files`), CollectionFilePageSchema);
    expect(before.files.map((f) => [f.name, f.scanResult])).toEqual([
      ['photo.jpg', null],
      ['readme.com', null],
    ]);
    const shown = await ok(await server.fetch(`/api/public/collections/${c.slug}/files`), PublicCollectionFilePageSchema);
    expect(shown.files.every((f) => f.scanPending)).toBe(true);

    expect(await scanDueNow(server.services)).toBe(2);
    const after = await ok(await api('GET', `/collections/${c.id}/files`), CollectionFilePageSchema);
    expect(after.files.map((f) => [f.id, f.scanResult])).toEqual([[photoId, 'clean']]);
    const visible = await ok(await server.fetch(`/api/public/collections/${c.slug}/files`), PublicCollectionFilePageSchema);
    expect(visible.files.map((f) => [f.name, f.scanPending])).toEqual([['photo.jpg', false]]);
    expect(await fileRow(eicarId!)).toBeUndefined();
    expect(await storedLength(server.services, eicarId!)).toBeNull();

    const links = await ok(await server.fetch(`/api/public/collections/${c.slug}/download-links`), DownloadLinksSchema);
    expect(links.files.map((f) => f.name)).toEqual(['photo.jpg']);
    const zip = await download(server, links.zip!.url);
    expect(zip.res.status).toBe(200);
    expect(zip.body.includes(Buffer.from('readme.com'))).toBe(false);

    expect(await scanDueNow(server.services)).toBe(0);
    const mail = (await listOutbox(server.dataDir, ws.id)).filter((m) => m.tag === 'collection.file-quarantined');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('readme.com');
  });
});

describe('a 200 MB file', () => {
  const size = 200 * 1024 * 1024;
  let bytes: Buffer;
  let fileId: string;
  let links: Awaited<ReturnType<typeof linksOf>>;

  beforeAll(async () => {
    bytes = randomFile(size);
    const sent = await sentTransfer([{ name: 'footage.mov', bytes }]);
    fileId = sent.fileIds[0]!;
    links = await linksOf(sent.transfer.id);
  }, 120_000);

  it('keeps waiting, unscanned, when clamd dies mid-scan; the failure shows in the log and the health endpoint; it is scanned once clamd is back', async () => {
    const scanning = scanDueNow(server.services);
    // Mid-scan: clamd is frozen as soon as the file is claimed (200 MB cannot be through by then),
    // the stream fills the socket's buffers, and then clamd dies.
    await expect.poll(async () => (await fileRow(fileId))!.scanAttempts, { interval: 5 }).toBe(1);
    clamd.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await clamd.kill();
    await scanning;

    const row = (await fileRow(fileId))!;
    expect(row.scanResult).toBeNull();
    expect(row.scanError).toMatch(/clamd/);
    expect((await download(server, links.files[0]!.url)).res.status).toBe(503);
    expect(logLines.some((l) => l.includes('virus scan failed') && l.includes(fileId))).toBe(true);
    const health = (await (await server.fetch('/healthz')).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'degraded', scanner: { status: 'unreachable', waiting: 1, retrying: 1, lastFailure: row.scanError } });

    // Not tried again before its wait is over, and while clamd is down it backs off further.
    expect(await scanDueNow(server.services)).toBe(0);
    server.clock.advance(retryWaitSeconds(1) * 1000);
    expect(await scanDueNow(server.services)).toBe(1);
    const second = (await fileRow(fileId))!;
    expect([second.scanResult, second.scanAttempts]).toEqual([null, 2]);
    expect(second.scanLeaseUntil!.getTime() - server.clock.now().getTime()).toBe(retryWaitSeconds(2) * 1000);

    await clamd.start();
    server.clock.advance(retryWaitSeconds(2) * 1000);
    expect(await scanDueNow(server.services)).toBe(1);
    expect((await fileRow(fileId))!).toMatchObject({ scanResult: 'clean', scanError: null });
    const health2 = (await (await server.fetch('/healthz')).json()) as Record<string, unknown>;
    expect(health2).toMatchObject({ status: 'ok', scanner: { status: 'ok', waiting: 0, retrying: 0 } });
  }, 120_000);

  it('is streamed to clamd without its size in memory', async () => {
    // Scan it again from the start, sampling what this process holds live while it does: each sample
    // collects garbage first, so what the collector has not reached yet (which depends on what ran
    // before in this process) is not counted as held.
    await server.services.db.update(files).set({ scanResult: null, scanLeaseUntil: null }).where(eq(files.id, fileId));
    const collect = global.gc;
    if (!collect) throw new Error('the server tests run with --expose-gc (vitest.config.ts)');
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    // A young-generation collection before each sample is enough (the stream's chunks die young)
    // and quick, so the sampling does not slow the scan it measures.
    const held = () => {
      collect({ type: 'minor', execution: 'sync' });
      return used();
    };
    collect();
    await new Promise((resolve) => setImmediate(resolve));
    const baseline = held();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, held())), 10);
    try {
      expect(await scanDueNow(server.services)).toBe(1);
    } finally {
      clearInterval(sampler);
    }
    expect((await fileRow(fileId))!.scanResult).toBe('clean');
    // The file is 200 MB; a scan holds a few chunks in flight.
    expect(peak - baseline).toBeLessThan(48 * 1024 * 1024);
  }, 120_000);
});

describe('an end-to-end encrypted transfer', () => {
  it('is not scanned (the server holds only ciphertext), and its files are served without waiting', async () => {
    const t = await seedTransfer(server, { workspaceId: ws.id, e2ee: true, files: [{ name: 'sealed', data: randomFile(1_000) }] });
    expect(await scanDueNow(server.services)).toBe(0);
    const page = await ok(await publicTransfer(t.transfer.slug), PublicTransferSchema);
    expect(page.files.map((f) => f.scanPending)).toEqual([false]);
    const session = await startSession(server, t.transfer.slug);
    expect((await download(server, session.files[0]!.url)).res.status).toBe(200);
    expect((await fileRow(t.files[0]!.id))!.scanResult).toBeNull();
  });
});

describe('without CLAMD_URL', () => {
  it('scans nothing, serves files unscanned with scanResult null, and says so on /me', async () => {
    const plain = await startTestServer();
    try {
      const owner = await plain.createWorkspace();
      const token = await owner.createKey(['transfers:read', 'transfers:write']);
      const bytes = randomFile(10_000);
      const created = await ok(await plain.fetch('/api/v1/transfers', { method: 'POST', token, json: { files: [{ name: 'a.bin', size: bytes.length }] } }), CreateTransferResponseSchema, 201);
      await tusUpload(bytes, { endpoint: `${plain.url}/files/`, token: created.files[0]!.uploadToken });
      const sent = await ok(await plain.fetch(`/api/v1/transfers/${created.id}/finalize`, { method: 'POST', token, json: {} }), TransferSchema);
      expect(sent.files[0]!.scanResult).toBeNull();
      expect(await scanDueNow(plain.services)).toBe(0);
      const page = await ok(await plain.fetch(`/api/public/transfers/${sent.slug}`), PublicTransferSchema);
      expect(page.files[0]!.scanPending).toBe(false);
      const links = await ok(await plain.fetch(`/api/v1/transfers/${created.id}/download-links`, { token }), DownloadLinksSchema);
      expect((await download(plain, links.files[0]!.url)).res.status).toBe(200);
      expect((await ok(await plain.fetch('/api/v1/me', { token }), MeSchema)).scanning).toEqual({ enabled: false });
      expect(await (await plain.fetch('/healthz')).json()).toEqual({ status: 'ok' });
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
