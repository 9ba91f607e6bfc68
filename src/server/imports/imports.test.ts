// @module-tag scale-out — imports write to the configured storage from jobs
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema } from '../../contract/collections.js';
import { ErrorSchema } from '../../contract/errors.js';
import { ResolvedLinkSchema } from '../../contract/links.js';
import { CreateTransferResponseSchema, DownloadLinksSchema, ImportStatusSchema, TransferListSchema, TransferSchema } from '../../contract/transfers.js';
import { collectionsApi } from '../test/collections.js';
import { events, files } from '../db/schema/index.js';
import { listOutbox } from '../mail/file-mailer.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { runTransferSweep } from '../test/worker.js';
import { setWorkspaceDisabled } from '../workspaces/operator.js';
import { download } from '../test/transfers.js';
import { crcOf, randomFile, storedBytes } from '../test/uploads.js';
import { IMPORT_PART_BYTES, importDueNow } from './importer.js';
import { answerStatus, redirectTo, serveFile, TestOrigins, type OriginHandler, type TestOrigin } from '../test/import-origins.js';

/**
 * URL imports through HTTP against real origins on 127.0.0.1: registered with a transfer or a
 * collection, fetched by the importer through the SSRF-safe client, followed with GET /imports,
 * and the transfer sent when its last import lands.
 */

let server: TestServer;
let ws: TestWorkspace;
let key: string;
const origins = new TestOrigins();

beforeAll(async () => {
  server = await startTestServer({ IMPORTS_ALLOW_INSECURE: '1', IMPORT_IDLE_TIMEOUT_SECONDS: '2' });
  ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:write', 'collections:write']);
}, 60_000);
afterAll(async () => {
  await origins.closeAll();
  await server?.stop();
});

const origin = (handler: OriginHandler) => origins.start(handler);
/** The Range header of each request an origin was sent. */
const rangesAsked = (o: TestOrigin) => o.requests.map((r) => r.headers.range);

const api = (method: string, path: string, json?: unknown, token = key) => server.fetch(`/api/v1${path}`, { method, token, json });
async function ok<T>(res: Response, schema: { parse(v: unknown): T }, status = 200): Promise<T> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  return schema.parse(JSON.parse(body));
}
const statusOf = async (fileId: string, token = key) => ok(await api('GET', `/imports/${fileId}`, undefined, token), ImportStatusSchema);
const fileOf = async (id: string) => (await server.services.db.select().from(files).where(eq(files.id, id)))[0]!;

describe('a URL import into a transfer', () => {
  it('is registered as importing, fetched with its exact bytes and CRC-32, and then ready', async () => {
    const bytes = randomFile(300_000);
    const o = await origin(serveFile(bytes, { contentDisposition: 'attachment; filename="Quarterly report.pdf"', contentType: 'application/pdf' }));
    const created = await ok(
      await api('POST', '/transfers', { files: [], imports: [{ url: `${o.url}/files/q3.pdf?sig=abc`, size: bytes.length }] }),
      CreateTransferResponseSchema,
      201,
    );
    expect(created.files).toEqual([]);
    const [entry] = created.imports;
    expect(entry).toMatchObject({ name: 'q3.pdf', size: bytes.length, source: `${o.url}/files/q3.pdf?sig=abc`, status: 'importing' });
    const waiting = await statusOf(entry!.fileId);
    expect(waiting).toMatchObject({ status: 'importing', receivedBytes: 0, size: bytes.length });
    // The spec's `error` is a string: absent while nothing went wrong, never null.
    expect(waiting).not.toHaveProperty('error');

    expect(await importDueNow(server.services)).toBe(1);
    const status = await statusOf(entry!.fileId);
    // Named and typed by the origin, since the caller gave neither.
    expect(status).toMatchObject({ status: 'ready', receivedBytes: bytes.length, size: bytes.length, name: 'Quarterly report.pdf' });
    expect(status).not.toHaveProperty('error');
    const row = await fileOf(entry!.fileId);
    expect([row.state, row.crc32, row.mimeType]).toEqual(['complete', crcOf(bytes), 'application/pdf']);
    expect((await storedBytes(server.services, entry!.fileId))!.equals(bytes)).toBe(true);
  });

  it('learns the size from Content-Length when none was declared, and fails a body of another length than declared', async () => {
    const bytes = randomFile(5_000);
    const o = await origin(serveFile(bytes));
    const created = await ok(
      await api('POST', '/transfers', { files: [], imports: [{ url: `${o.url}/a.bin` }, { url: `${o.url}/b.bin`, size: 4_000 }] }),
      CreateTransferResponseSchema,
      201,
    );
    expect(created.imports.map((i) => i.size)).toEqual([null, 4_000]);
    // Unknown until the origin answers: null, not a size of 0.
    expect((await statusOf(created.imports[0]!.fileId)).size).toBeNull();
    await importDueNow(server.services);
    const [learned, wrong] = await Promise.all(created.imports.map((i) => statusOf(i.fileId)));
    expect(learned).toMatchObject({ status: 'ready', size: 5_000, receivedBytes: 5_000 });
    expect(wrong!.status).toBe('failed');
    expect(wrong!.error).toMatch(/5000|4000|size|long/i);
  });

  it('fails on an error answer, and a redirect to a refused address, without connecting to it', async () => {
    const missing = await origin(answerStatus(404, 'nope'));
    const sneaky = await origin(redirectTo('http://169.254.169.254/latest/meta-data'));
    const created = await ok(
      await api('POST', '/transfers', { files: [], imports: [{ url: `${missing.url}/gone.zip` }, { url: `${sneaky.url}/x` }] }),
      CreateTransferResponseSchema,
      201,
    );
    await importDueNow(server.services);
    const [gone, refused] = await Promise.all(created.imports.map((i) => statusOf(i.fileId)));
    expect(gone).toMatchObject({ status: 'failed', receivedBytes: 0 });
    expect(gone!.error).toMatch(/404/);
    expect(refused!.status).toBe('failed');
    expect(refused!.error).toMatch(/not allowed|forbidden/i);
  });

  it('resumes from the last committed part with a ranged request after the connection drops', async () => {
    const bytes = randomFile(IMPORT_PART_BYTES + 3_000_000);
    const o = await origin(serveFile(bytes, { dropFirstAfter: IMPORT_PART_BYTES + 1_000_000 }));
    const created = await ok(
      await api('POST', '/transfers', { files: [], imports: [{ url: `${o.url}/big.bin`, size: bytes.length }] }),
      CreateTransferResponseSchema,
      201,
    );
    const id = created.imports[0]!.fileId;

    await importDueNow(server.services);
    const halfway = await statusOf(id);
    // One whole part was committed before the cut; the rest of the second part was not.
    expect(halfway).toMatchObject({ status: 'importing', receivedBytes: IMPORT_PART_BYTES });
    expect(halfway.error).not.toBeNull();

    server.clock.advance(10 * 60_000);
    await importDueNow(server.services);
    expect(await statusOf(id)).toMatchObject({ status: 'ready', receivedBytes: bytes.length });
    // Asked from what storage holds: the committed part at least (disk keeps what arrived past it too), never from the start.
    expect(rangesAsked(o)).toHaveLength(2);
    expect(rangesAsked(o)[0]).toBeUndefined();
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(rangesAsked(o)[1]!)![1]);
    expect(resumedFrom).toBeGreaterThanOrEqual(IMPORT_PART_BYTES);
    expect(resumedFrom).toBeLessThanOrEqual(IMPORT_PART_BYTES + 1_000_000);
    expect((await fileOf(id)).crc32).toBe(crcOf(bytes));
  }, 60_000);

  it('sends a transfer finalized while its import runs when the import lands: finalizedAt null until then, its link saying the files are still arriving; then recipients mailed once, transfer.ready once', async () => {
    const bytes = randomFile(20_000);
    const o = await origin(serveFile(bytes));
    const created = await ok(
      await api('POST', '/transfers', { files: [], imports: [{ url: `${o.url}/late.bin` }], recipients: ['late@example.com'] }),
      CreateTransferResponseSchema,
      201,
    );
    const requestedAt = server.clock.now().toISOString();
    const waiting = await ok(await api('POST', `/transfers/${created.id}/finalize`, {}), TransferSchema);
    // The spec: "null until sent", and a transfer finalized while imports run is sent when the last one lands.
    expect(waiting.finalizedAt).toBeNull();
    expect(waiting.sendRequestedAt).toBe(requestedAt);
    const mailsTo = async (to: string) => (await listOutbox(server.services.config.DATA_DIR, ws.id)).filter((m) => m.to === to);
    const readyEvents = async () =>
      (await server.services.db.select().from(events).where(eq(events.subjectId, created.id))).filter((e) => e.type === 'transfer.ready');
    expect(await mailsTo('late@example.com')).toHaveLength(0);
    expect(await readyEvents()).toHaveLength(0);

    // Its link hands out nothing yet: no empty visit, no empty zip, but "still arriving".
    const link = `${server.services.config.PUBLIC_URL}/t/${created.slug}`;
    for (const res of [await api('POST', '/links/resolve', { url: link }), await server.fetch(`/api/public/transfers/${created.slug}`)]) {
      expect(res.status).toBe(409);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(ErrorSchema.parse(await res.json()).error.code).toBe('files_arriving');
    }
    expect((await server.fetch(`/api/public/transfers/${created.slug}/sessions`, { method: 'POST', json: {} })).status).toBe(409);
    // Listed as sent (not a draft), and a second finalize changes nothing.
    const again = await ok(await api('POST', `/transfers/${created.id}/finalize`, {}), TransferSchema);
    expect([again.finalizedAt, again.sendRequestedAt]).toEqual([null, requestedAt]);
    const drafts = await ok(await api('GET', '/transfers?status=draft'), TransferListSchema);
    expect(drafts.transfers.map((t) => t.id)).not.toContain(created.id);
    const sentList = await ok(await api('GET', '/transfers?status=sent'), TransferListSchema);
    expect(sentList.transfers.find((t) => t.id === created.id)).toMatchObject({ finalizedAt: null, sendRequestedAt: requestedAt });
    // The sweep of unsent drafts leaves it alone, however long the import takes.
    server.clock.advance(25 * 3600_000);
    await runTransferSweep(server.services);
    expect((await api('GET', `/transfers/${created.id}`)).status).toBe(200);

    await importDueNow(server.services);
    const sent = await ok(await api('GET', `/transfers/${created.id}`), TransferSchema);
    expect(sent.finalizedAt).toBe(server.clock.now().toISOString());
    expect(sent.sendRequestedAt).toBe(requestedAt);
    expect(await mailsTo('late@example.com')).toHaveLength(1);
    expect(await readyEvents()).toHaveLength(1);
    await ok(await api('POST', `/transfers/${created.id}/finalize`, {}), TransferSchema);
    await importDueNow(server.services);
    expect(await mailsTo('late@example.com')).toHaveLength(1);
    expect(await readyEvents()).toHaveLength(1);

    const links = await ok(await api('GET', `/transfers/${created.id}/download-links`), DownloadLinksSchema);
    expect((await download(server, links.files[0]!.url)).body.equals(bytes)).toBe(true);
    const resolved = await ok(await api('POST', '/links/resolve', { url: link }), ResolvedLinkSchema);
    expect(resolved.files.map((f) => f.name)).toEqual(['late.bin']);
    expect((await download(server, resolved.files[0]!.url)).body.equals(bytes)).toBe(true);
    expect((await server.fetch(`/api/public/transfers/${created.slug}`)).status).toBe(200);
  });

  it('sends a transfer whose import failed with the files that arrived, and mails the owner once', async () => {
    const bytes = randomFile(1_000);
    const good = await origin(serveFile(bytes));
    const bad = await origin(answerStatus(500));
    const created = await ok(
      await api('POST', '/transfers', {
        files: [],
        imports: [{ url: `${good.url}/ok.bin` }, { url: `${bad.url}/broken.bin` }],
        recipients: ['partial@example.com'],
      }),
      CreateTransferResponseSchema,
      201,
    );
    await ok(await api('POST', `/transfers/${created.id}/finalize`, {}), TransferSchema);
    // A 5xx is retried: give up after the configured attempts, each after its wait.
    for (let i = 0; i < server.services.config.IMPORT_ATTEMPTS; i++) {
      await importDueNow(server.services);
      server.clock.advance(2 * 3600_000);
    }
    expect((await statusOf(created.imports[1]!.fileId)).status).toBe('failed');
    const outbox = await listOutbox(server.services.config.DATA_DIR, ws.id);
    expect(outbox.filter((m) => m.to === 'partial@example.com')).toHaveLength(1);
    expect(outbox.filter((m) => m.tag === 'transfer.import-failed' && m.subject.includes('broken.bin'))).toHaveLength(1);
  });
});

describe('a URL import into a collection', () => {
  it('lands in the folder of its path as a file of source import', async () => {
    const bytes = randomFile(2_000);
    const o = await origin(serveFile(bytes));
    const collections = collectionsApi(server, key);
    const c = await collections.create({ title: 'Imported' });
    const res = await collections.call('POST', `/collections/${c.id}/files`, { imports: [{ url: `${o.url}/scan.bin`, path: 'Scans/2026' }] });
    expect(res.status).toBe(201);
    const { imports } = (await res.json()) as { imports: { fileId: string }[] };
    await importDueNow(server.services);
    expect((await statusOf(imports[0]!.fileId)).status).toBe('ready');
    const listed = CollectionFilePageSchema.parse(await (await collections.call('GET', `/collections/${c.id}/files`)).json()).files;
    expect(listed.map((f) => [f.name, f.state])).toEqual([['scan.bin', 'complete']]);
    const uploaded = (await server.services.db.select().from(events).where(eq(events.type, 'collection.file_uploaded'))).map(
      (e) => e.data as { source: string; file: { id: string } },
    );
    expect(uploaded.find((e) => e.file.id === imports[0]!.fileId)?.source).toBe('import');
  });
});

describe('GET /imports/{fileId}', () => {
  it("works with any scope, and is 404 for an uploaded file and for another workspace's import", async () => {
    const o = await origin(serveFile(randomFile(10)));
    const created = await ok(
      await api('POST', '/transfers', { files: [{ name: 'up.txt', size: 3 }], imports: [{ url: `${o.url}/x.bin` }] }),
      CreateTransferResponseSchema,
      201,
    );
    const anyScope = await ws.createKey(['webhooks:read']);
    expect((await statusOf(created.imports[0]!.fileId, anyScope)).status).toBe('importing');
    expect((await api('GET', `/imports/${created.files[0]!.id}`)).status).toBe(404);
    const other = await server.createWorkspace();
    const otherKey = await other.createKey(['transfers:read']);
    const res = await api('GET', `/imports/${created.imports[0]!.fileId}`, undefined, otherKey);
    expect(res.status).toBe(404);
    expect(ErrorSchema.parse(await res.json()).error.code).toBe('not_found');
  });
});

describe('a URL import of a workspace the operator disabled', () => {
  async function importInto(workspace: TestWorkspace, url: string, size: number) {
    const ownKey = await workspace.createKey(['transfers:write']);
    const created = await ok(await api('POST', '/transfers', { files: [], imports: [{ url, size }] }, ownKey), CreateTransferResponseSchema, 201);
    return created.imports[0]!.fileId;
  }

  it('is not fetched, and fails saying why', async () => {
    const o = await origin(serveFile(randomFile(1_000)));
    const disabled = await server.createWorkspace({ plan: 'paid' });
    const id = await importInto(disabled, `${o.url}/never.bin`, 1_000);
    await setWorkspaceDisabled(server.services.db, disabled.id, true, server.clock.now());

    await importDueNow(server.services);
    const row = await fileOf(id);
    expect(row.state).toBe('failed');
    expect(row.error).toMatch(/disabled by the operator/);
    expect(o.requests).toHaveLength(0);
    expect(await storedBytes(server.services, id)).toBeNull();
  });

  it('stops in flight after the part it was writing, storing nothing more', async () => {
    const bytes = randomFile(IMPORT_PART_BYTES + 3_000);
    const disabled = await server.createWorkspace({ plan: 'paid' });
    const serve = serveFile(bytes);
    // The operator disables the workspace once the import is under way: the origin has been asked.
    const o = await origin((req, res, self) => {
      void setWorkspaceDisabled(server.services.db, disabled.id, true, server.clock.now()).then(() => serve(req, res, self));
    });
    const id = await importInto(disabled, `${o.url}/big.bin`, bytes.length);

    await importDueNow(server.services);
    const row = await fileOf(id);
    expect(row.state).toBe('failed');
    expect(row.error).toMatch(/disabled by the operator/);
    expect(o.requests).toHaveLength(1);
    expect(await storedBytes(server.services, id)).toBeNull();
  }, 60_000);
});
