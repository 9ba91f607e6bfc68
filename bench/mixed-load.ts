/**
 * `npm run bench:load`: a mixed load of API reads, writes and small tus uploads against a real
 * server for BENCH_SECONDS (default 60), through autocannon's programmatic API.
 *
 * The server runs in a child process (bench/server-entry.ts, embedded PostgreSQL in a temp
 * DATA_DIR unless DATABASE_URL is set, the in-process worker on, logs at info to a file) so that
 * its RSS and CPU time are measured apart from the client's. Its rate limits and plan allowances
 * are raised out of reach (bench/server-process.ts UNLIMITED): the benchmark measures the server,
 * not the limiter.
 *
 *   BENCH_SECONDS       length of the measured run, default 60
 *   BENCH_CONNECTIONS   concurrent keep-alive connections, default 10
 *   BENCH_WORKSPACES    workspaces, each with its own key and seeded transfers, default 4
 *   BENCH_SEED          sent transfers seeded per workspace before the run, default 50
 *   BENCH_UPLOAD_KB     size of each uploaded file in KiB, default 4
 *
 * Each connection cycles through the same ten requests (autocannon `requests`, one context per
 * connection), so the mix is fixed: 5 reads, 3 JSON writes, 2 tus requests. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, createKey, machineLine, mb, printServerErrors, rssOf, type ServerProcess, signUp, startServerProcess } from './server-process.js';
import { cleanupOnExit, median, positiveIntEnv, runMain, tusCreate } from './support.js';

// ---------------------------------------------------------------------------------------------
// autocannon (CommonJS, no bundled types): the part of its API used here
// ---------------------------------------------------------------------------------------------

interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  setupRequest?: (req: CannonRequest, context: Context) => CannonRequest | null;
  onResponse?: (status: number, body: string, context: Context, headers: Record<string, string>) => void;
}
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  throughput: { average: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  mismatches: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface CannonInstance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'reqError', fn: (err: Error) => void): void;
}
type Autocannon = (
  opts: { url: string; connections: number; duration: number; requests: CannonRequest[]; timeout?: number },
  done: (err: Error | null, result: CannonResult) => void,
) => CannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface Workspace {
  key: string;
  transferIds: string[];
}

/** Per-connection state kept by autocannon between the requests of one cycle. */
interface Context {
  ws?: Workspace;
  upload?: { tusPath: string; token: string; transferId: string };
  location?: string;
}

interface CreatedTransfer {
  id: string;
  tusEndpoint: string;
  files: { id: string; uploadToken: string }[];
}

async function api<T>(url: string, key: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A sent transfer with one small file, made the way a client of the API makes one. */
async function sendTransfer(url: string, key: string, payload: Buffer, title: string): Promise<string> {
  const t = await api<CreatedTransfer>(url, key, 'POST', '/api/v1/transfers', { title, files: [{ name: 'note.bin', size: payload.length }] });
  const file = t.files[0]!;
  const location = await tusCreate(t.tusEndpoint, file.uploadToken, payload.length);
  const res = await fetch(location, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'x-service-upload-token': file.uploadToken },
    body: new Uint8Array(payload),
  });
  if (res.status !== 204) throw new Error(`seed PATCH: ${res.status} ${await res.text()}`);
  await api(url, key, 'POST', `/api/v1/transfers/${t.id}/finalize`, {});
  return t.id;
}

async function seed(server: ServerProcess, workspaces: number, perWorkspace: number, payload: Buffer): Promise<Workspace[]> {
  const out: Workspace[] = [];
  for (let w = 0; w < workspaces; w++) {
    const { cookie } = await signUp(server.url, `load${w}`);
    const key = await createKey(server.url, cookie, ['transfers:read', 'transfers:write', 'contacts:read', 'contacts:write']);
    const transferIds: string[] = [];
    // Four at a time: seeding is not measured, only has to be quick.
    for (let i = 0; i < perWorkspace; i += 4) {
      const batch = Array.from({ length: Math.min(4, perWorkspace - i) }, (_, j) => sendTransfer(server.url, key, payload, `seeded ${i + j}`));
      transferIds.push(...(await Promise.all(batch)));
    }
    out.push({ key, transferIds });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The request mix
// ---------------------------------------------------------------------------------------------

/** Which request of the cycle answered last: autocannon calls onResponse, then emits 'response', in the same tick. */
let lastLabel = '';
/** Every created contact gets a new address, across the warm-up and the measured run. */
let contactSerial = 0;

function mix(workspaces: Workspace[], uploadSize: number) {
  const payload = randomBytes(uploadSize);
  let nextWorkspace = 0;
  const auth = (ctx: Context) => ({ authorization: `Bearer ${ctx.ws!.key}` });
  const anyTransfer = (ctx: Context) => ctx.ws!.transferIds[Math.floor(Math.random() * ctx.ws!.transferIds.length)]!;
  const labelled = (label: string, req: CannonRequest): CannonRequest => ({
    ...req,
    onResponse: (status, body, ctx, headers) => {
      lastLabel = label;
      req.onResponse?.(status, body, ctx, headers);
    },
  });

  const listTransfers = labelled('GET /api/v1/transfers', {
    method: 'GET',
    // Connections are spread over the workspaces; each keeps its own from then on.
    setupRequest: (req, ctx) => {
      ctx.ws ??= workspaces[nextWorkspace++ % workspaces.length]!;
      return { ...req, path: '/api/v1/transfers', headers: auth(ctx) };
    },
  });
  const getTransfer = labelled('GET /api/v1/transfers/{id}', {
    method: 'GET',
    setupRequest: (req, ctx) => ({ ...req, path: `/api/v1/transfers/${anyTransfer(ctx)}`, headers: auth(ctx) }),
  });
  const me = labelled('GET /api/v1/me', {
    method: 'GET',
    setupRequest: (req, ctx) => ({ ...req, path: '/api/v1/me', headers: auth(ctx) }),
  });
  const createContact = labelled('POST /api/v1/contacts', {
    method: 'POST',
    setupRequest: (req, ctx) => {
      const n = contactSerial++;
      return {
        ...req,
        path: '/api/v1/contacts',
        headers: { ...auth(ctx), 'content-type': 'application/json' },
        body: JSON.stringify({ email: `contact-${process.pid}-${n}@example.test`, name: `Contact ${n}`, company: 'Load' }),
      };
    },
  });
  const createTransfer = labelled('POST /api/v1/transfers', {
    method: 'POST',
    setupRequest: (req, ctx) => {
      ctx.upload = undefined;
      ctx.location = undefined;
      return {
        ...req,
        path: '/api/v1/transfers',
        headers: { ...auth(ctx), 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'load', files: [{ name: 'upload.bin', size: uploadSize }] }),
      };
    },
    onResponse: (status, body, ctx) => {
      if (status !== 201) return;
      const t = JSON.parse(body) as CreatedTransfer;
      ctx.upload = { tusPath: new URL(t.tusEndpoint).pathname, token: t.files[0]!.uploadToken, transferId: t.id };
    },
  });
  // tus creation and the PATCH need the answer before them; without it the cycle starts over (a "reset").
  const tusCreation = labelled('POST /files (tus creation)', {
    method: 'POST',
    setupRequest: (req, ctx) =>
      ctx.upload
        ? { ...req, path: ctx.upload.tusPath, headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(uploadSize), 'x-service-upload-token': ctx.upload.token } }
        : null,
    onResponse: (status, _body, ctx, headers) => {
      if (status === 201 && headers.location) ctx.location = new URL(headers.location, 'http://x').pathname;
    },
  });
  const tusPatch = labelled('PATCH /files/{id} (tus)', {
    method: 'PATCH',
    setupRequest: (req, ctx) =>
      ctx.upload && ctx.location
        ? {
            ...req,
            path: ctx.location,
            headers: {
              'Tus-Resumable': '1.0.0',
              'Upload-Offset': '0',
              'Content-Type': 'application/offset+octet-stream',
              'x-service-upload-token': ctx.upload.token,
            },
            body: payload,
          }
        : null,
  });
  const finalize = labelled('POST /api/v1/transfers/{id}/finalize', {
    method: 'POST',
    setupRequest: (req, ctx) =>
      ctx.upload ? { ...req, path: `/api/v1/transfers/${ctx.upload.transferId}/finalize`, headers: { ...auth(ctx), 'content-type': 'application/json' }, body: '{}' } : null,
  });
  return [listTransfers, getTransfer, me, createContact, listTransfers, getTransfer, createTransfer, tusCreation, tusPatch, finalize];
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const seconds = positiveIntEnv('BENCH_SECONDS', 60);
  const connections = positiveIntEnv('BENCH_CONNECTIONS', 10);
  const workspaceCount = positiveIntEnv('BENCH_WORKSPACES', 4);
  const seedCount = positiveIntEnv('BENCH_SEED', 50);
  const uploadSize = positiveIntEnv('BENCH_UPLOAD_KB', 4) * 1024;

  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-load-'));
  let server: ServerProcess | null = null;
  const cleanup = cleanupOnExit(async () => {
    await server?.stop().catch((err: unknown) => console.error('could not stop the server:', err));
    await fsp.rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dataDir}:`, err));
  });

  try {
    console.log('starting the server (child process)…');
    server = await startServerProcess(dataDir);
    const running = server;
    console.log(`seeding ${workspaceCount} workspaces with ${seedCount} sent transfers each…`);
    const workspaces = await seed(running, workspaceCount, seedCount, randomBytes(uploadSize));

    // A short warm-up (JIT, connection pools, caches), not counted.
    await new Promise<CannonResult>((resolve, reject) => {
      autocannon({ url: running.url, connections, duration: 3, requests: mix(workspaces, uploadSize) }, (err, r) => (err ? reject(err) : resolve(r)));
    });

    const heapBefore = await running.heapAfterGc();
    const idleRss = running.rss();
    const cpuBefore = cpuSeconds(running.pid);
    const rss: { t: number; rss: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => rss.push({ t: (performance.now() - started) / 1000, rss: rssOf(running.pid) }), 250);
    const byLabel = new Map<string, { ms: number[]; statuses: Map<number, number> }>();
    const errors: string[] = [];

    console.log(`measuring: ${connections} connections for ${seconds} s…`);
    const result = await new Promise<CannonResult>((resolve, reject) => {
      const instance = autocannon(
        { url: running.url, connections, duration: seconds, timeout: 30, requests: mix(workspaces, uploadSize) },
        (err, r) => (err ? reject(err) : resolve(r)),
      );
      instance.on('response', (_client, status, _bytes, ms) => {
        let entry = byLabel.get(lastLabel);
        if (!entry) byLabel.set(lastLabel, (entry = { ms: [], statuses: new Map() }));
        entry.ms.push(ms);
        entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
      });
      instance.on('reqError', (err) => {
        if (errors.length < 20) errors.push(String(err));
      });
    });
    clearInterval(sampler);
    const endRss = running.rss();
    const cpu = cpuSeconds(running.pid) - cpuBefore;
    // Memory a little after the load: what stays once garbage can be collected.
    await new Promise((r) => setTimeout(r, 10_000));
    const settledRss = running.rss();
    const heapAfter = await running.heapAfterGc();

    // ------------------------------------------------------------------ report
    const all = [...byLabel.values()].flatMap((e) => e.ms).sort((a, b) => a - b);
    const total = all.length;
    const non2xx = [...byLabel.values()].reduce((s, e) => s + [...e.statuses].filter(([code]) => code < 200 || code > 299).reduce((a, [, n]) => a + n, 0), 0);
    const peak = Math.max(idleRss, ...rss.map((s) => s.rss));
    console.log('');
    console.log(`mixed API load, ${seconds} s, ${connections} connections, ${workspaceCount} workspaces × ${seedCount} seeded transfers, uploads of ${uploadSize / 1024} KiB`);
    console.log(await machineLine());
    console.log('server: child process, embedded PostgreSQL, in-process worker on, logs at info to a file; rate limits raised out of reach');
    console.log('');
    console.log(`throughput        ${(total / result.duration).toFixed(0)} requests/s  (${total} requests in ${result.duration.toFixed(1)} s; autocannon average ${result.requests.average.toFixed(0)}/s)`);
    console.log(`latency (all)     p50 ${percentile(all, 50).toFixed(1)} ms   p99 ${percentile(all, 99).toFixed(1)} ms   max ${all.at(-1)?.toFixed(1)} ms`);
    console.log(`errors            non-2xx ${non2xx}   connection errors ${result.errors}   timeouts ${result.timeouts}   cycles restarted ${result.resets}`);
    console.log(`server RSS        idle ${mb(idleRss)} MB   peak ${mb(peak)} MB   end ${mb(endRss)} MB   10 s after ${mb(settledRss)} MB`);
    console.log(
      `server heap       live after a full GC: ${mb(heapBefore.heapUsed)} MB before the run, ${mb(heapAfter.heapUsed)} MB after ` +
        `(${((heapAfter.heapUsed - heapBefore.heapUsed) / 1024 / (total / 1000)).toFixed(1)} KB per 1000 requests); RSS after that GC ${mb(heapAfter.rss)} MB`,
    );
    console.log(`server CPU        ${cpu.toFixed(1)} s over ${result.duration.toFixed(0)} s (${((cpu / result.duration) * 100).toFixed(0)} % of one core; PostgreSQL not included)`);
    // The figure to compare between runs: it depends far less than requests per second on what else the machine ran.
    console.log(`per core          ${(total / cpu).toFixed(0)} requests per CPU-second of the server (${((cpu * 1000) / total).toFixed(2)} ms of CPU per request)`);
    console.log('');
    const w = Math.max(...[...byLabel.keys()].map((k) => k.length));
    console.log(`${'request'.padEnd(w)}   count    req/s     p50 ms    p99 ms   statuses`);
    for (const [label, e] of byLabel) {
      const sorted = [...e.ms].sort((a, b) => a - b);
      const statuses = [...e.statuses].sort(([a], [b]) => a - b).map(([code, n]) => `${code}×${n}`).join(' ');
      console.log(
        `${label.padEnd(w)}  ${String(e.ms.length).padStart(6)}  ${(e.ms.length / result.duration).toFixed(0).padStart(6)}  ${percentile(sorted, 50).toFixed(1).padStart(9)} ${percentile(sorted, 99).toFixed(1).padStart(9)}   ${statuses}`,
      );
    }
    console.log('');
    const marks = [0.1, 0.25, 0.5, 0.75, 0.9, 1].map((f) => rss[Math.min(rss.length - 1, Math.max(0, Math.round(f * rss.length) - 1))]!);
    console.log(`server RSS over the run: ${marks.map((s) => `${s.t.toFixed(0)} s ${mb(s.rss)} MB`).join(', ')}  (median ${mb(median(rss.map((s) => s.rss)))} MB)`);
    const logged = await printServerErrors(running.logFile);
    for (const err of errors) console.log(`  client error: ${err}`);
    if (non2xx > 0 || result.errors > 0 || logged.length > 0) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

runMain(main);
