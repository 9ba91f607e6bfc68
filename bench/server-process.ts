import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, MB } from './support.js';

/**
 * The real server in a child process, for benchmarks that measure its memory apart from the
 * client's: `node --import tsx bench/server-entry.ts` (what `npm start` runs), its log written to a
 * file, its resident set size read from /proc. Workspaces and keys are made through the public
 * dashboard endpoints (sign-up, then `POST /api/dashboard/keys`), as a user would.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Rate limits and plan allowances raised so far that a benchmark never meets them: under load from
 * one loopback address and a handful of keys, the defaults (60 anonymous requests a minute per
 * address, 600 a minute per key) would answer most requests with 429 and measure the limiter.
 */
export const UNLIMITED = {
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(1e9),
  RATE_LIMIT_KEY_PER_MINUTE: String(1e9),
  RATE_LIMIT_WORKSPACE_PER_DAY: String(1e9),
  RATE_LIMIT_SUBMISSIONS_PER_HOUR: String(1e9),
  SIGNIN_ATTEMPTS_PER_15_MINUTES: String(1e9),
  FREE_MONTHLY_CALLS: String(1e9),
  FREE_TRANSFER_MAX_BYTES: String(1e12),
  FREE_UPLOAD_BYTES_PER_MONTH: String(1e13),
};

export interface ServerProcess {
  url: string;
  pid: number;
  dataDir: string;
  logFile: string;
  /** Resident set size of the server process now, in bytes (VmRSS); 0 once it has exited. */
  rss(): number;
  /** SIGTERM, then waits for the exit (SIGKILL after 30 s). The embedded PostgreSQL stops with it. */
  stop(): Promise<void>;
  /** process.memoryUsage() of the server right after a full garbage collection (it runs with --expose-gc). */
  heapAfterGc(): Promise<NodeJS.MemoryUsage>;
}

/** VmRSS of a process in bytes, from /proc (Linux); 0 when the process is gone. */
export function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system) a process has used so far, in seconds, from /proc/<pid>/stat; with
 * `withChildren`, that of its live child processes too (nginx's worker).
 */
export function cpuSeconds(pid: number, withChildren = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) / 100;
    if (!withChildren) return own;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return own + children.reduce((s, c) => s + cpuSeconds(c), 0);
  } catch {
    return 0;
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * Starts the server on a free loopback port with DATA_DIR `dataDir` (embedded PostgreSQL there,
 * unless DATABASE_URL is set in `env` or in this process's environment) and waits for /healthz.
 */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  // BENCH_SERVER_NODE_ARGS: extra flags for the server's Node, e.g. `--cpu-prof --cpu-prof-dir=.cache/prof` to profile it.
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...extra, '--import', 'tsx', path.join(repoRoot, 'bench/server-entry.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...UNLIMITED,
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const pid = child.pid!;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited(child);
      clearTimeout(timer);
    })());

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting; see ${logFile}:\n${await tail(logFile)}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /healthz within 120 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const heapAfterGc = async () => {
    const before = (await fsp.readFile(logFile, 'utf8')).split('heap-after-gc ').length;
    child.kill('SIGUSR2');
    for (let waited = 0; waited < 30_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      const parts = (await fsp.readFile(logFile, 'utf8')).split('heap-after-gc ');
      if (parts.length > before) return JSON.parse(parts.at(-1)!.split('\n')[0]!) as NodeJS.MemoryUsage;
    }
    throw new Error('the server did not report its heap within 30 s');
  };
  return { url, pid, dataDir, logFile, rss: () => rssOf(pid), stop, heapAfterGc };
}

async function tail(file: string): Promise<string> {
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-20).join('\n');
}

/** Log lines at level error (50) or above, as written by pino. */
export async function errorLines(logFile: string): Promise<string[]> {
  const text = await fsp.readFile(logFile, 'utf8');
  return text.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });
}

/** Prints how many lines the server logged at level error or above, and the first five; returns them. */
export async function printServerErrors(logFile: string): Promise<string[]> {
  const logged = await errorLines(logFile);
  console.log(`server log lines at level error or above: ${logged.length}`);
  for (const line of logged.slice(0, 5)) console.log(`  ${line.slice(0, 400)}`);
  return logged;
}

/** Samples a process's RSS every `intervalMs`; `stop()` returns every sample. */
export function rssSampler(pid: number, intervalMs: number, extra: () => number = () => 0) {
  const samples: { at: number; rss: number; progress: number }[] = [];
  const take = () => samples.push({ at: performance.now(), rss: rssOf(pid), progress: extra() });
  take();
  const timer = setInterval(take, intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export const mb = (bytes: number) => (bytes / MB).toFixed(0);

/** A new workspace (its owner signed up through the dashboard endpoint) and its session cookie. */
export async function signUp(url: string, label = 'bench'): Promise<{ email: string; password: string; cookie: string }> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
  const password = randomBytes(12).toString('base64url');
  const res = await fetch(`${url}/api/dashboard/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password, workspaceName: `Benchmark ${label}` }),
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  return { email, password, cookie: sessionCookie(res) };
}

/** Signs in with a password; returns the `name=value` of the session cookie. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/dashboard/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return sessionCookie(res);
}

function sessionCookie(res: Response): string {
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error('no session cookie in the answer');
  return cookies.join('; ');
}

/** An API key of the signed-in user's workspace with these scopes; returns the secret. */
export async function createKey(url: string, cookie: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${url}/api/dashboard/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie },
    body: JSON.stringify({ name: 'benchmark', scopes }),
  });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { secret: string }).secret;
}

/** The facts every printed figure carries: machine, load, Node, date. */
export async function machineLine(): Promise<string> {
  const os = await import('node:os');
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  return (
    `${new Date().toISOString()}  Node ${process.version}  ${os.platform()}-${os.arch()}  ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim() ?? '?'})` +
    `  ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB RAM  load average ${load}`
  );
}
