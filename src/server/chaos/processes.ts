import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real server and worker processes for the chaos suites, each in its own process group (detached),
 * so that one SIGKILL of the group takes down everything the process started, as a supervisor's
 * `kill -9` of a service does. The embedded PostgreSQL runs in a group of its own (db/embedded.ts)
 * and so outlives the kill, as it does in production.
 *
 * The suites read: CHAOS_LONG=1 (the long forms, `npm run chaos`), CHAOS_SEED (replay a run's sizes
 * and kill moments), CHAOS_LOG_DIR (keep every process's whole output there), CHAOS_DEBUG (print the
 * clients' retries and the worker suite's steps).
 */

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns something truthy; `what` and `context()` explain a time-out. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000, context: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${context() ? `\n${context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The environment of the test runner without the settings that would point a child at the run's shared services. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name === 'DATABASE_URL' || name === 'REDIS_URL' || name === 'TEST_S3' || name.startsWith('S3_') || name === 'CLAMD_URL' || name === 'SMTP_URL') delete env[name];
  }
  return env;
}

export interface ChaosProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** The last 20,000 characters it wrote to stdout and stderr, for the message of a failed wait. */
  output(): string;
  readonly exited: Promise<void>;
  /** SIGKILL to its whole process group, sent now; `exited` tells when it is gone. */
  killNow(): void;
  /** SIGKILL to its whole process group; resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChaosProcess>();

/**
 * Starts `node --import tsx <script>` (no npm or tsx wrapper in between, so the signal reaches the
 * server itself) in a process group of its own, and waits until `ready` says it is up.
 */
export async function startProcess(
  name: string,
  script: 'src/server/main.ts' | 'src/server/worker-main.ts',
  env: NodeJS.ProcessEnv,
  ready: (proc: ChaosProcess) => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<ChaosProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // CHAOS_LOG_DIR keeps every process's whole output (the killed ones' too), for a failure's post-mortem.
  const logFile = process.env.CHAOS_LOG_DIR ? path.join(process.env.CHAOS_LOG_DIR, `${name}.log`) : null;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (logFile) fs.appendFileSync(logFile, chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const proc: ChaosProcess = {
    name,
    child,
    output: () => output,
    exited,
    killNow() {
      if (gone()) return;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone between the check and the kill.
      }
    },
    async kill() {
      proc.killNow();
      await exited;
      running.delete(proc);
    },
    async stop(graceMs = 20_000) {
      if (!gone()) child.kill('SIGTERM');
      const timer = setTimeout(() => void proc.kill(), graceMs);
      await exited;
      clearTimeout(timer);
      running.delete(proc);
    },
  };
  running.add(proc);
  await until(
    `${name} to start`,
    async () => {
      if (gone()) throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode} before it was ready:\n${output}`);
      return ready(proc);
    },
    timeoutMs,
    () => output,
  );
  return proc;
}

/** Every process still running, killed: for afterAll, whatever state a failed test left. */
export async function killAllProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

/** Ready when GET /healthz answers 200. */
export const healthy = (url: string) => async () => fetch(`${url}/healthz`).then((r) => r.ok, () => false);

/** Ready when the worker has logged that it runs (LOG_LEVEL info or lower). */
export const workerRunning = async (proc: ChaosProcess) => proc.output().includes('"msg":"worker running"');

/** `n` pseudo-random numbers in [0, 1) from a seed (mulberry32), so that a failing run can be replayed with CHAOS_SEED. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: CHAOS_SEED when given (to replay a failure), else a fresh one. */
export function chaosSeed(): number {
  const given = Number(process.env.CHAOS_SEED);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}

/** CHAOS_LONG=1: the long forms (`npm run chaos`); otherwise the short forms that `npm test` runs. */
export const chaosLong = process.env.CHAOS_LONG === '1';
