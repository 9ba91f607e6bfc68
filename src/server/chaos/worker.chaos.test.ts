// @module-tag scale-out — crashes and restarts against the configured database and storage
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from '@node-rs/crc32';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenanceSweep, runTransferSweep } from '../assembly/worker.js';
import { serveFile, TestOrigins } from '../test/import-origins.js';
import { EICAR, startTestClamd, type TestClamd } from '../test/clamd.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { crcHex } from '../uploads/crc.js';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';
import { apiCall, downloadCrc, resumableUpload, writeSourceFile } from './client.js';
import { chaosLong, chaosSeed, cleanEnv, killAllProcesses, seededRandom, startProcess, until, workerRunning, type ChaosProcess } from './processes.js';
import { expectCompleteFilesMatchStorage, liveStorageKeys, orphanedNames, sentMailCounts, storedNames } from './verify.js';

/**
 * The worker (`npm run worker`, a process of its own on the web server's database and storage)
 * killed with SIGKILL in the middle of each kind of its work: a webhook delivery on the wire, a URL
 * import half fetched, a virus scan waiting on clamd, an expiry sweep under way. Another worker
 * takes over each time. In the end every event was delivered at least once under its own id, every
 * recipient was mailed exactly once, every import is complete with its origin's bytes (and
 * scanned clean), the infected transfer is blocked, every expired transfer is expired with its
 * bytes gone, and no byte is left in storage that no live file owns. CHAOS_LONG=1: more of each,
 * in several rounds.
 */

const MB = 1024 * 1024;
const HOUR = 3_600_000;
/** How long the receiver takes to answer: most of the workers' delivery time-out (WEBHOOK_TIMEOUT_SECONDS). */
const HOLD_MS = 1500;
const seed = chaosSeed();
const random = seededRandom(seed);
const plan = chaosLong ? { rounds: 6, uploads: 4, imports: 3, expiring: 12 } : { rounds: 2, uploads: 2, imports: 2, expiring: 4 };

let server: TestServer;
let clamd: TestClamd;
let receiver: Receiver;
let tmpDir: string;
let key: string;
let worker: ChaosProcess;
let workerEnv: NodeJS.ProcessEnv;
let boss: PgBoss;
const origins = new TestOrigins();
/** Webhook requests the receiver is holding: each is answered after most of the delivery time-out, so that a kill lands mid-delivery. */
let holding = 0;
let webhookId: string;

beforeAll(async () => {
  clamd = await startTestClamd();
  receiver = await startReceiver((_req, res) => {
    holding++;
    setTimeout(() => {
      holding--;
      if (!res.destroyed) res.writeHead(200).end('ok');
    }, HOLD_MS);
  });
  server = await startTestServer({
    CLAMD_URL: clamd.url,
    IMPORTS_ALLOW_INSECURE: '1',
    WEBHOOKS_ALLOW_INSECURE: '1',
  });
  // The workers run on the system clock; the server's clock starts where theirs is and is moved with it.
  server.clock.set(new Date());
  tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-chaos-worker-'));
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:read', 'transfers:write', 'webhooks:read', 'webhooks:write'], 'chaos');
  const hook = await server.fetch('/api/v1/webhooks', { method: 'POST', token: key, json: { url: `${receiver.url}/hooks`, events: ['transfer.ready', 'transfer.expired'] } });
  expect(hook.status).toBe(201);
  webhookId = ((await hook.json()) as { webhook: { id: string } }).webhook.id;
  workerEnv = {
    ...cleanEnv(),
    ...server.storageEnv,
    DATABASE_URL: server.databaseUrl,
    DATA_DIR: server.dataDir,
    PUBLIC_URL: server.services.config.PUBLIC_URL,
    // A killed worker's spooled import parts (S3) stay in a directory of the test's.
    TMPDIR: tmpDir,
    LOG_LEVEL: 'info',
    IMPORTS_ALLOW_INSECURE: '1',
    IMPORT_LEASE_SECONDS: '3',
    IMPORT_POLL_INTERVAL_MS: '100',
    IMPORT_IDLE_TIMEOUT_SECONDS: '15',
    WEBHOOKS_ALLOW_INSECURE: '1',
    WEBHOOK_TIMEOUT_SECONDS: '2',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
    CLAMD_URL: clamd.url,
    SCAN_LEASE_SECONDS: '3',
    SCAN_POLL_INTERVAL_MS: '100',
    SCAN_TIMEOUT_SECONDS: '20',
  };
  boss = new PgBoss({ connectionString: server.databaseUrl, schema: 'jobs', max: 1 });
  boss.on('error', () => undefined);
}, 120_000);

afterAll(async () => {
  await killAllProcesses();
  await boss?.stop({ graceful: false }).catch(() => undefined);
  await origins.closeAll();
  await receiver?.close();
  await server?.stop();
  await clamd?.close();
  if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true });
}, 60_000);

const api = (method: string, pathname: string, json?: unknown) => apiCall(server.url, { method, path: pathname, token: key, json });
const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.services.db.$client.query<T>(sql, params)).rows;

const t0 = Date.now();
const debug = (what: string) => process.env.CHAOS_DEBUG && console.log(`${((Date.now() - t0) / 1000).toFixed(1)} ${what}`);
async function startWorker() {
  debug('worker starting');
  worker = await startProcess('worker', 'src/server/worker-main.ts', workerEnv, workerRunning);
}

/** Puts the minutely transfer sweep on the queue now (at most once a second), for whichever worker takes it. */
let lastSweep = 0;
async function enqueueTransferSweep() {
  if (Date.now() - lastSweep < 1000) return;
  lastSweep = Date.now();
  await boss.send('sweep-transfers', {});
}

interface Sent {
  kind: 'upload' | 'import' | 'infected' | 'expiring';
  transferId: string;
  fileId: string;
  recipient: string;
  crc32: string;
  size: number;
}
const sent: Sent[] = [];

/** A sent transfer of one file uploaded with tus. */
async function sendUploaded(kind: Sent['kind'], bytes: { path: string; size: number; crc32: string }) {
  server.clock.set(new Date());
  const recipient = `${kind}-${sent.length}-${seed}@example.test`;
  const created = await api('POST', '/transfers', { files: [{ name: `${kind}.bin`, size: bytes.size }], recipients: [recipient] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const body = created.body as { id: string; files: { id: string; uploadToken: string }[] };
  const file = body.files[0]!;
  await resumableUpload({ endpoint: `${server.url}/files/`, uploadUrl: `${server.url}/files/${file.id}`, token: file.uploadToken, source: bytes, chunkSize: Infinity });
  expect((await api('POST', `/transfers/${body.id}/finalize`, {})).status).toBe(200);
  sent.push({ kind, transferId: body.id, fileId: file.id, recipient, crc32: bytes.crc32, size: bytes.size });
}

/** A transfer sent while its one file is still being imported from a slow loopback origin (four to six seconds). */
async function sendImported() {
  const size = Math.floor((4 + 2 * random()) * MB);
  const bytes = randomBytes(size);
  const origin = await origins.start(serveFile(bytes, { etag: `"chaos-${sent.length}"`, bytesPerSecond: MB }));
  server.clock.set(new Date());
  const recipient = `import-${sent.length}-${seed}@example.test`;
  const created = await api('POST', '/transfers', { files: [], imports: [{ url: `${origin.url}/source.bin`, size }], recipients: [recipient] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const body = created.body as { id: string; imports: { fileId: string }[] };
  expect((await api('POST', `/transfers/${body.id}/finalize`, {})).status).toBe(200);
  sent.push({ kind: 'import', transferId: body.id, fileId: body.imports[0]!.fileId, recipient, crc32: crcHex(crc32(bytes)), size });
  return origin;
}

async function sourceFile(name: string, size: number) {
  return writeSourceFile(path.join(tmpDir, `${name}-${sent.length}.bin`), size);
}

/**
 * One round: new work of every kind, each caught in the middle (a row the expiry sweep must update
 * locked by the test, clamd frozen, origins sending slowly, the receiver holding its requests for
 * most of the delivery time-out), and the worker killed once all four are under way at once.
 */
async function round(n: number) {
  // Sent transfers whose time then runs out; the sweep blocks on the one the test holds locked.
  const expiring: string[] = [];
  for (let i = 0; i < plan.expiring; i++) {
    await sendUploaded('expiring', await sourceFile('expiring', 64 * 1024 + i));
    expiring.push(sent.at(-1)!.transferId);
  }
  await query(`UPDATE transfers SET expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [expiring]);
  const lock = await server.services.db.$client.connect();
  try {
    await lock.query('BEGIN');
    // The last one made (the sweep comes to it after the others), if still active (the workers' own
    // minutely sweep may have come by meanwhile), locked until the kill.
    const locked = await lock.query('SELECT id FROM transfers WHERE id = $1 AND status = $2 FOR UPDATE', [expiring.at(-1), 'active']);
    const blocking = locked.rowCount === 1;
    lastSweep = 0;
    await enqueueTransferSweep();
    debug('expiring sent');

    // Uploaded transfers: each file waits on the frozen clamd.
    clamd.pause();
    for (let i = 0; i < plan.uploads; i++) await sendUploaded('upload', await sourceFile('upload', Math.floor((1 + 3 * random()) * MB)));
    if (n === 0) {
      const eicar = path.join(tmpDir, 'eicar.bin');
      await fs.writeFile(eicar, EICAR);
      await sendUploaded('infected', { path: eicar, size: EICAR.length, crc32: crcHex(crc32(EICAR)) });
    }
    debug('uploads sent');
    const importing: Awaited<ReturnType<typeof sendImported>>[] = [];
    for (let i = 0; i < plan.imports; i++) importing.push(await sendImported());
    debug('imports sent');

    await until(
      'a delivery, an import, a scan and the expiry sweep all under way',
      async () => {
        // Deliveries on the wire at the moment of the kill: a test event whenever none is held.
        if (holding === 0) await api('POST', `/webhooks/${webhookId}/test`);
        const [state] = await query<{ scanning: boolean; sweeping: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM files WHERE scan_result IS NULL AND scan_attempts > 0 AND scan_lease_until > now()) AS scanning,
                  EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'update "transfers"%') AS sweeping`,
        );
        return holding > 0 && importing.some((o) => o.requests.length > 0) && state!.scanning && (state!.sweeping || !blocking);
      },
      60_000,
      () => worker.output(),
    );
    const expiredAtKill = (await query(`SELECT 1 FROM transfers WHERE id = ANY($1) AND status = 'expired'`, [expiring])).length;
    const onTheWire = holding;
    await worker.kill();
    debug(`killed with ${onTheWire} deliveries held, ${expiredAtKill} of ${expiring.length} expired`);
    return `round ${n + 1}: ${onTheWire} deliveries on the wire, ${importing.length} imports fetching, scans waiting, the sweep ${expiredAtKill}/${expiring.length} through`;
  } finally {
    await lock.query('ROLLBACK');
    lock.release();
    await clamd.kill();
    await clamd.start();
    await startWorker();
  }
}

describe(`the worker killed with SIGKILL in the middle of its work (seed ${seed})`, () => {
  it('loses no event, mails no recipient twice, marks no import ready with other bytes, and leaves nothing behind', async () => {
    const started = Date.now();
    await boss.start();
    await startWorker();
    const kills: string[] = [];
    for (let n = 0; n < plan.rounds; n++) kills.push(await round(n));

    // The last worker finishes the work; the minutely sweep is put on the queue until everything expired is swept.
    const byKind = (kind: Sent['kind']) => sent.filter((s) => s.kind === kind);
    const ids = (list: Sent[]) => list.map((s) => s.transferId);
    await until(
      'the work to settle',
      async () => {
        await enqueueTransferSweep();
        const [pending] = await query<{ importing: string; unscanned: string; unexpired: string; undelivered: string; unready: string }>(
          `SELECT
             (SELECT count(*) FROM files WHERE state = 'importing') AS importing,
             (SELECT count(*) FROM files f JOIN transfers t ON t.id = f.owner_id WHERE f.state = 'complete' AND f.scan_result IS NULL AND t.status = 'active') AS unscanned,
             (SELECT count(*) FROM transfers WHERE id = ANY($1) AND (status <> 'expired' OR purged_at IS NULL)) AS unexpired,
             (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded') AS undelivered,
             (SELECT count(*) FROM transfers WHERE id = ANY($2) AND ready_at IS NULL) AS unready`,
          [ids(byKind('expiring')), ids([...byKind('upload'), ...byKind('import')])],
        );
        // No import is ever complete with other bytes than its origin's, at any moment.
        for (const imported of byKind('import')) {
          const [row] = await query<{ state: string; crc32: string | null }>('SELECT state, crc32 FROM files WHERE id = $1', [imported.fileId]);
          if (row?.state === 'complete') expect(row.crc32, `import ${imported.fileId}`).toBe(imported.crc32);
        }
        return Object.values(pending!).every((n) => Number(n) === 0);
      },
      chaosLong ? 300_000 : 90_000,
      () => worker.output(),
    );
    const settled = Date.now();
    debug('settled');

    // Every event (of the kinds the endpoint takes) reached the receiver, under its own id, at least once.
    const events = await query<{ id: string; type: string; subject_id: string }>(
      `SELECT id, type, subject_id FROM events WHERE type IN ('transfer.ready', 'transfer.expired') ORDER BY created_at`,
    );
    const received = new Map<string, number>();
    for (const req of receiver.at('/hooks')) {
      const body = JSON.parse(req.rawBody.toString()) as { id: string };
      expect(req.headers['service-event-id'], 'a delivery names its event by the event\'s own id').toBe(body.id);
      received.set(body.id, (received.get(body.id) ?? 0) + 1);
    }
    for (const e of events) expect(received.get(e.id) ?? 0, `${e.type} ${e.id} of ${e.subject_id}`).toBeGreaterThanOrEqual(1);
    // And every delivery the endpoint was owed (test events included) succeeded, its event received under its id.
    const deliveries = await query<{ event_id: string; event_type: string; status: string }>('SELECT event_id, event_type, status FROM webhook_deliveries WHERE endpoint_id = $1', [webhookId]);
    for (const d of deliveries) {
      expect(d.status, `${d.event_type} ${d.event_id}`).toBe('succeeded');
      expect(received.get(d.event_id) ?? 0, `${d.event_type} ${d.event_id}`).toBeGreaterThanOrEqual(1);
    }
    const typesBySubject = new Map<string, string[]>();
    for (const e of events) typesBySubject.set(e.subject_id, [...(typesBySubject.get(e.subject_id) ?? []), e.type]);
    for (const s of sent) {
      const want = s.kind === 'expiring' ? 'transfer.expired' : 'transfer.ready';
      expect(typesBySubject.get(s.transferId), `${s.kind} transfer ${s.transferId}`).toContain(want);
    }

    // Each recipient mailed exactly once, whichever process sent it and whatever was killed in between.
    const mails = await sentMailCounts([server.dataDir]);
    expect(Object.fromEntries(sent.map((s) => [s.recipient, mails.get(s.recipient) ?? 0]))).toEqual(Object.fromEntries(sent.map((s) => [s.recipient, 1])));

    // Imports and uploads complete with their own bytes, scanned clean, and served whole; the infected transfer blocked.
    for (const s of [...byKind('upload'), ...byKind('import')]) {
      const got = await api('GET', `/transfers/${s.transferId}`);
      const transfer = got.body as { status: string; files: { id: string; state: string; crc32: string | null; sizeBytes: number; scanResult: string | null }[] };
      expect(transfer.files.map((f) => [f.id, f.state, f.sizeBytes, f.crc32, f.scanResult])).toEqual([[s.fileId, 'complete', s.size, s.crc32, 'clean']]);
      const links = await api('GET', `/transfers/${s.transferId}/download-links`);
      const url = (links.body as { files: { url: string }[] }).files[0]!.url;
      expect(await downloadCrc(url.replace(server.services.config.PUBLIC_URL, server.url))).toEqual({ status: 200, crc32: s.crc32, length: s.size });
    }
    for (const s of byKind('infected')) {
      const [t] = await query<{ status: string; purged: boolean }>('SELECT status, purged_at IS NOT NULL AS purged FROM transfers WHERE id = $1', [s.transferId]);
      expect(t).toEqual({ status: 'infected', purged: true });
    }
    expect(await expectCompleteFilesMatchStorage(server.services)).toBe(byKind('upload').length + byKind('import').length);

    // The sweeps, on a clock two hours ahead (past the grace of bytes still being written): nothing in storage that no live file owns.
    server.clock.set(new Date(Date.now() + 2 * HOUR));
    await runTransferSweep(server.services);
    await runMaintenanceSweep(server.services);
    const names = await storedNames(server.storageEnv.S3_BUCKET ? { s3: server.storageEnv } : { dataDir: server.dataDir });
    expect(orphanedNames(names, await liveStorageKeys(server.services)), 'bytes in storage that no live file owns').toEqual([]);
    for (const s of [...byKind('upload'), ...byKind('import')]) expect(names).toContain(s.fileId);
    for (const s of [...byKind('expiring'), ...byKind('infected')]) expect(names.filter((n) => n.startsWith(s.fileId))).toEqual([]);

    console.info(
      `chaos worker (${server.services.storage.kind}, seed ${seed}): ${kills.join('; ')}; ` +
         `${deliveries.length} deliveries owed, ${receiver.at('/hooks').length} requests received; work ${((settled - started) / 1000).toFixed(1)} s, checks ${((Date.now() - settled) / 1000).toFixed(1)} s`,
    );
  }, chaosLong ? 900_000 : 180_000);
});
