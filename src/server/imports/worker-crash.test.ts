// @module-tag scale-out — imports write to the configured storage from jobs
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreateTransferResponseSchema, ImportStatusSchema, TransferSchema } from '../../contract/transfers.js';
import { files } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { download, startSession } from '../test/transfers.js';
import { crcOf, randomFile } from '../test/uploads.js';
import { IMPORT_PART_BYTES } from './importer.js';
import { serveFile, TestOrigins } from '../test/import-origins.js';

/**
 * An import outlives the worker that fetches it: separate `npm run worker` processes on the test
 * server's database and storage (its DATA_DIR, or its bucket in the S3 run), one killed with SIGKILL
 * mid-part and another resuming from the last committed part with a ranged request; and a lease
 * kept on a clock, so that a second worker never claims an import whose slow origin is still sending.
 */

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const LEASE_SECONDS = 3;

let server: TestServer;
let key: string;
let tmpDir: string;
const origins = new TestOrigins();

interface WorkerProcess {
  child: ChildProcess;
  /** What it wrote to stdout and stderr, for the message of a failed wait. */
  output: string;
  exited: Promise<void>;
}
const workers = new Set<WorkerProcess>();

/** SIGKILL to a worker's process group: nothing it started may outlive it. */
async function kill(worker: WorkerProcess) {
  if (worker.child.exitCode === null && worker.child.signalCode === null) {
    try {
      process.kill(-worker.child.pid!, 'SIGKILL');
    } catch {
      // Already gone between the check and the kill.
    }
  }
  await worker.exited;
  workers.delete(worker);
}

const killAll = () => Promise.all([...workers].map(kill));

/** `npm run worker` as an operator starts it next to the web instances (without npm's shell, which only adds start-up time). */
async function startWorkerProcess(): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...server.storageEnv,
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: server.dataDir,
      PUBLIC_URL: 'http://127.0.0.1',
      // The S3 store spools each part to a file in the temp directory; a killed worker leaves its file behind there.
      TMPDIR: tmpDir,
      LOG_LEVEL: 'info',
      IMPORTS_ALLOW_INSECURE: '1',
      IMPORT_LEASE_SECONDS: String(LEASE_SECONDS),
      IMPORT_POLL_INTERVAL_MS: '100',
      IMPORT_IDLE_TIMEOUT_SECONDS: '15',
    },
    // Its own process group, so that one kill reaches everything it started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess = { child, output: '', exited: new Promise((resolve) => child.once('exit', () => resolve())) };
  workers.add(worker);
  const collect = (chunk: Buffer) => (worker.output = (worker.output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  // A new Node process compiling the server with tsx: seconds on an idle machine, up to a minute on a busy one.
  await until(
    'the worker to start',
    async () => {
      if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}: ${worker.output}`);
      return worker.output.includes('"msg":"worker running"');
    },
    60_000,
  );
  // The same files as the server's, or the worker would import into storage nobody downloads from.
  expect(worker.output).toContain(`"storage":"${server.services.storage.kind}"`);
  return worker;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; workers said:\n${[...workers].map((w) => w.output.slice(-3000)).join('\n---\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startTestServer({ IMPORTS_ALLOW_INSECURE: '1' });
  // The workers run on the system clock (leases, sweeps): the server's clock starts where theirs is,
  // or their minutely sweep would expire a transfer the server created months "ago".
  server.clock.set(new Date());
  tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-worker-crash-'));
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:read', 'transfers:write']);
}, 60_000);
afterEach(killAll);
afterAll(async () => {
  await killAll();
  await origins.closeAll();
  await server?.stop();
  if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true });
});

const api = (method: string, pathname: string, json?: unknown) => server.fetch(`/api/v1${pathname}`, { method, token: key, json });
async function ok<T>(res: Response, schema: { parse(v: unknown): T }, status = 200): Promise<T> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  return schema.parse(JSON.parse(body));
}
const statusOf = async (fileId: string) => ok(await api('GET', `/imports/${fileId}`), ImportStatusSchema);
const fileOf = async (id: string) => (await server.services.db.select().from(files).where(eq(files.id, id)))[0]!;

/** Registers an import in a transfer sent at once (it is sent to recipients when the import lands). */
async function importIntoSentTransfer(url: string, size: number) {
  const created = await ok(await api('POST', '/transfers', { files: [], imports: [{ url, size }] }), CreateTransferResponseSchema, 201);
  await ok(await api('POST', `/transfers/${created.id}/finalize`, {}), TransferSchema);
  return { transferId: created.id, slug: created.slug, fileId: created.imports[0]!.fileId };
}

const settled = (fileId: string) =>
  until('the import to settle', async () => {
    const status = await statusOf(fileId);
    return status.status !== 'importing' && status;
  });

describe('a URL import fetched by a separate worker process', () => {
  it('resumes from the last committed part with a ranged request after its worker is killed with SIGKILL, to the same CRC-32', async () => {
    // Three storage parts, sent slowly enough (about 4 s in all) that the kill lands while the second is being written.
    const bytes = randomFile(100_000_000);
    const o = await origins.start(serveFile(bytes, { etag: '"crash-v1"', bytesPerSecond: 25_000_000 }));
    const { transferId, slug, fileId } = await importIntoSentTransfer(`${o.url}/big.bin`, bytes.length);

    const first = await startWorkerProcess();
    const midway = await until('one part to be committed', async () => {
      const status = await statusOf(fileId);
      return status.receivedBytes >= IMPORT_PART_BYTES && status;
    });
    await kill(first);
    expect(midway).toMatchObject({ status: 'importing' });
    expect(midway.receivedBytes).toBeLessThan(bytes.length);

    // Nothing marks the half-written file ready: it waits for its lease to run out.
    const orphaned = await statusOf(fileId);
    expect(orphaned.status).toBe('importing');
    expect(orphaned.receivedBytes).toBeGreaterThanOrEqual(midway.receivedBytes);
    expect(orphaned.receivedBytes).toBeLessThan(bytes.length);
    expect(await fileOf(fileId)).toMatchObject({ state: 'importing', crc32: null });
    expect(o.requests).toHaveLength(1);

    await startWorkerProcess();
    expect(await settled(fileId)).toMatchObject({ status: 'ready', receivedBytes: bytes.length });

    // Asked from what storage holds: the committed parts at least (disk also keeps bytes that arrived past them), never from the start.
    const ranges = o.requests.map((r) => r.headers.range);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1], 'the second worker asks only for the rest').toMatch(/^bytes=\d+-$/);
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(ranges[1]!)![1]);
    expect(resumedFrom).toBeGreaterThanOrEqual(midway.receivedBytes);
    expect(resumedFrom).toBeLessThan(bytes.length);
    expect(o.requests[1]!.headers['if-range']).toBe('"crash-v1"');

    // The import's file completes first; the transfer goes out just after, as its contract says (poll for finalizedAt).
    const transfer = await until('the transfer to go out', async () => {
      const t = await ok(await api('GET', `/transfers/${transferId}`), TransferSchema);
      return t.finalizedAt !== null && t;
    });
    expect(transfer.files.map((f) => [f.id, f.state, f.sizeBytes, f.crc32])).toEqual([[fileId, 'complete', bytes.length, crcOf(bytes)]]);
    const session = await startSession(server, slug);
    const downloaded = await download(server, session.files[0]!.url);
    expect(downloaded.res.status).toBe(200);
    expect(downloaded.body.length).toBe(bytes.length);
    expect(crcOf(downloaded.body)).toBe(crcOf(bytes));
  }, 180_000);

  it('is not claimed by a second worker while its origin pauses for longer than a lease within one part', async () => {
    const bytes = randomFile(2_000_000);
    // Longer than a lease, shorter than the idle time-out: only the lease's clock keeps the second worker away.
    const o = await origins.start(serveFile(bytes, { pause: { after: 500_000, ms: (LEASE_SECONDS + 2) * 1000 } }));
    // Both workers poll every 100 ms before there is anything to claim. One after the other: two pg-boss
    // instances creating their queues at the same moment can deadlock on a fresh database.
    await startWorkerProcess();
    await startWorkerProcess();
    const { fileId } = await importIntoSentTransfer(`${o.url}/slow.bin`, bytes.length);

    expect(await settled(fileId)).toMatchObject({ status: 'ready', receivedBytes: bytes.length });
    expect(o.requests).toHaveLength(1);
    expect(await fileOf(fileId)).toMatchObject({ state: 'complete', crc32: crcOf(bytes), importAttempts: 1 });
  }, 120_000);
});
