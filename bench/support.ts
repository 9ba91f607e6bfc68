import { operatorActor } from '../src/server/activity/activity.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createApiKey } from '../src/server/auth/api-keys.js';
import { loadConfig } from '../src/server/config.js';
import { createLogger } from '../src/server/logger.js';
import { startServer, type RunningServer } from '../src/server/assembly/runtime.js';
import { createWorkspaceWithOwner } from '../src/server/workspaces/accounts.js';

/** What the benchmarks share: settings from the environment, a free port, test files, the API client and tus creation. */

export const MB = 1024 * 1024;

export function positiveIntEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}


export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}


/** Writes `size` bytes of crypto-random data, 1 MiB at a time: the file is never held in memory. */
export async function writeRandomFile(file: string, size: number): Promise<void> {
  const fh = await fsp.open(file, 'w');
  try {
    for (let written = 0; written < size; ) {
      const chunk = randomBytes(Math.min(MB, size - written));
      await fh.write(chunk);
      written += chunk.length;
    }
    // On disk before anything is measured, so that no writeback of it runs during a measurement.
    await fh.sync();
  } finally {
    await fh.close();
  }
}


export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);


/** Calls the API with a key: JSON in, JSON out, any non-2xx thrown with its body. */
export function apiClient(server: Pick<RunningServer, 'url'>, apiKey: string) {
  return async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}


/**
 * Runs a benchmark's `main`: exits with `process.exitCode` (a benchmark sets it when a run saw
 * errors) once it is done, or prints the error and exits 1. Exiting is explicit because servers and
 * pools it started may still hold the event loop after their cleanup.
 */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * Makes `cleanup` run once, whoever asks first: the benchmark's own end, an error, or Ctrl-C and
 * SIGTERM (then the process exits 130). Servers, the embedded PostgreSQL (its own process group)
 * and temp dirs would otherwise outlive an interrupted run.
 */
export function cleanupOnExit(cleanup: () => Promise<void>): () => Promise<void> {
  let cleaning: Promise<void> | null = null;
  const once = () => (cleaning ??= cleanup());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping…`);
      void once().finally(() => process.exit(130));
    });
  }
  return once;
}

/** tus creation (no body); returns the absolute upload URL. */
export async function tusCreate(endpoint: string, token: string, size: number): Promise<string> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'x-service-upload-token': token },
  });
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new Error(`tus POST: ${res.status} ${await res.text()}`);
  return new URL(location, endpoint).toString();
}


/**
 * A real server for a benchmark: embedded PostgreSQL (or DATABASE_URL) in `dataDir`, no worker,
 * silent logs, on a free loopback port, with a workspace and a transfers key. The free plan's
 * ceilings are raised to `limits`: a benchmark measures bytes, not billing.
 */
export async function startBenchServer(
  dataDir: string,
  limits: { transferBytes: number; monthBytes: number },
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; apiKey: string }> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RUN_WORKER: '0',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: process.env.DATABASE_URL,
    FREE_TRANSFER_MAX_BYTES: String(limits.transferBytes),
    FREE_UPLOAD_BYTES_PER_MONTH: String(limits.monthBytes),
    ...env,
  });
  const server = await startServer(config, { log: createLogger('silent') });
  try {
    const { db, clock } = server.services;
    const { workspace } = await createWorkspaceWithOwner(db, clock.now(), {
      email: `bench-${randomBytes(4).toString('hex')}@example.test`,
      password: randomBytes(12).toString('base64url'),
      workspaceName: 'Benchmark',
    });
    const { secret } = await createApiKey(db, clock.now(), workspace.id, 'free', 'bench', ['transfers:read', 'transfers:write'], operatorActor(null));
    return { server, apiKey: secret };
  } catch (err) {
    await server.close();
    throw err;
  }
}


/**
 * GETs `url` and streams the body to nowhere, counting bytes (`onBytes` sees the running total);
 * fails unless the answer is a 200 with exactly `expected` bytes and that Content-Length.
 */
export function streamDownload(url: string, expected: number, onBytes?: (total: number) => void): Promise<{ ms: number; bytes: number; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent: false }, (res) => {
      // The response head: what the server did before the first byte (token, database, storage checks).
      const firstByteMs = performance.now() - started;
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET ${url}: status ${res.statusCode}`));
        return;
      }
      let count = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          count += chunk.length;
          onBytes?.(count);
          callback();
        },
      });
      pipeline(res, sink).then(() => {
        const ms = performance.now() - started;
        if (count !== expected) reject(new Error(`GET ${url}: ${count} bytes, expected ${expected}`));
        else if (res.headers['content-length'] !== String(expected)) reject(new Error(`GET ${url}: Content-Length ${res.headers['content-length']}, expected ${expected}`));
        else resolve({ ms, bytes: count, firstByteMs });
      }, reject);
    });
    req.on('error', reject);
  });
}


/** One tus PATCH with the whole file at `file`, its body streamed from disk; checks the 204 and the final offset. */
export function tusPatchFile(uploadUrl: string, token: string, file: string, size: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(uploadUrl, {
      method: 'PATCH',
      agent: false,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(size),
        'x-service-upload-token': token,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 204 && res.headers['upload-offset'] === String(size)
          ? resolve()
          : reject(new Error(`tus PATCH: ${res.statusCode}, Upload-Offset ${String(res.headers['upload-offset'])}`)),
      );
    });
    pipeline(fs.createReadStream(file), req).catch(reject);
  });
}


// ---------------------------------------------------------------------------------------------
// Paired rounds: what every candidate/baseline comparison reports
// ---------------------------------------------------------------------------------------------

/**
 * Rounds per comparison when BENCH_ROUNDS is unset. On this shared VM single runs of either side
 * swing by ±40 %; seven paired ratios give a median that one bad round cannot move.
 */
export const DEFAULT_ROUNDS = 7;

/** The `q` quantile (0..1) of `xs`, interpolated between the two nearest values. */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

/** The median of a set of per-round ratios and how far they spread. */
export interface RatioSummary {
  median: number;
  min: number;
  max: number;
  /** Interquartile range: the middle half of the rounds lies between these. */
  q1: number;
  q3: number;
  rounds: number;
}

export function summarizeRatios(ratios: number[]): RatioSummary {
  return {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
    rounds: ratios.length,
  };
}

/** `0.97 (IQR 0.93–1.01, min–max 0.88–1.06)`. */
export function formatRatio(s: RatioSummary, digits = 2): string {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  return `${f(s.median)} (IQR ${f(s.q1)}–${f(s.q3)}, min–max ${f(s.min)}–${f(s.max)})`;
}

/** What one side of a round measured: bytes moved and how long that took. */
export interface Timed {
  ms: number;
  bytes: number;
}

/** One round of a paired comparison: each side once, back to back, and the candidate's speed over each baseline's. */
export interface PairedRound<R extends Timed> {
  candidate: R;
  baselines: R[];
  /** Candidate MB/s ÷ baseline MB/s, one per baseline, from this round alone. */
  ratios: number[];
  /** The sides in the order they ran ('c' for the candidate, a baseline's index otherwise). */
  order: ('c' | number)[];
}

/**
 * Runs `warmups` untimed rounds of every side (the first transfer of a size in a process is much
 * slower, whichever side makes it), then `rounds` counted rounds. In each counted round the
 * candidate runs next to its baseline(s) and the order flips every round: with one baseline
 * c,b / b,c / …; with two, b0,c,b1 / b1,c,b0 / …, so the candidate always sits beside both. Each
 * round's ratio compares two runs made seconds apart, under the same load; the median of those
 * ratios is what to read, not a ratio of medians taken minutes apart.
 */
export async function pairedRounds<R extends Timed>(
  rounds: number,
  candidate: () => Promise<R>,
  baselines: (() => Promise<R>)[],
  options: { warmups?: number; onRound?: (round: PairedRound<R>, index: number) => void } = {},
): Promise<PairedRound<R>[]> {
  if (baselines.length < 1 || baselines.length > 2) throw new Error('pairedRounds takes one or two baselines');
  for (let i = 0; i < (options.warmups ?? 1); i++) {
    await candidate();
    for (const b of baselines) await b();
  }
  const out: PairedRound<R>[] = [];
  for (let round = 0; round < rounds; round++) {
    const flip = round % 2 === 1;
    const order: ('c' | number)[] = baselines.length === 1 ? (flip ? [0, 'c'] : ['c', 0]) : flip ? [1, 'c', 0] : [0, 'c', 1];
    let c: R | undefined;
    const bs: R[] = [];
    for (const side of order) {
      if (side === 'c') c = await candidate();
      else bs[side] = await baselines[side]!();
    }
    const speed = (r: R) => mbps(r.bytes, r.ms);
    const paired: PairedRound<R> = { candidate: c!, baselines: bs, ratios: bs.map((b) => speed(c!) / speed(b)), order };
    options.onRound?.(paired, round);
    out.push(paired);
  }
  return out;
}

/** The per-round ratios against baseline `i`, summarized. */
export const pairedSummary = <R extends Timed>(rounds: PairedRound<R>[], i = 0): RatioSummary => summarizeRatios(rounds.map((r) => r.ratios[i]!));

/** The load average now, for the record: `load average 1.64 0.67 0.26`. */
export const loadAverage = () => `load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`;
