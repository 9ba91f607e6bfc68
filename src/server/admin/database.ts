import type { Config } from '../config.js';
import { connect, runMigrations, type Database } from '../db/connection.js';
import { isAlive, readPostmaster, runningEmbeddedUrl, startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded.js';
import type { Logger } from '../logger.js';
import { AdminError } from './commands.js';

/** Where the CLI found its database, for messages. */
export type DatabaseSource = 'DATABASE_URL' | 'running server' | 'started for this command';

export interface AdminDatabase {
  db: Database;
  source: DatabaseSource;
  /** Closes the pool and, when the CLI started PostgreSQL itself, stops it again. */
  close(): Promise<void>;
}


/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL of a server running on DATA_DIR right now
 * (so commands work while `npm start` runs); otherwise the CLI starts that PostgreSQL itself, and stops it when done.
 * Never starts one while another is running on DATA_DIR: starting would stop the running server's database.
 */
export async function openAdminDatabase(
  config: Config,
  log: Logger,
  hooks: { onStartingEmbedded?: (dataDir: string) => void } = {},
): Promise<AdminDatabase> {
  let url = config.DATABASE_URL;
  let source: DatabaseSource = 'DATABASE_URL';
  let embedded: EmbeddedDatabase | null = null;

  if (!url) {
    const running = await runningEmbeddedUrl(config.DATA_DIR);
    if (running) {
      url = running;
      source = 'running server';
    } else {
      const pm = await readPostmaster(config.DATA_DIR);
      if (pm && isAlive(pm.pid)) {
        throw new AdminError(
          'database_unavailable',
          `A PostgreSQL (pid ${pm.pid}) runs on ${config.DATA_DIR} but ${config.DATA_DIR}/postgres.password is missing, so it cannot be reached`,
        );
      }
      hooks.onStartingEmbedded?.(config.DATA_DIR);
      embedded = await startEmbeddedDatabase(config.DATA_DIR, log);
      url = embedded.url;
      source = 'started for this command';
    }
  }

  let db: Database | null = null;
  try {
    // Idempotent and serialised by an advisory lock, so it is safe next to a running server; it makes a
    // fresh DATABASE_URL or DATA_DIR usable before the server has ever started on it.
    await runMigrations(url);
    db = connect(url, 2);
  } catch (err) {
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  const pool = db.$client;
  return {
    db,
    source,
    async close() {
      try {
        await pool.end();
      } finally {
        await embedded?.stop();
      }
    },
  };
}

/** PostgreSQL and socket errors that mean "cannot reach or log in to the database", as one readable line. */
export function databaseErrorMessage(err: unknown, url: string | undefined): string | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const reachability = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'];
  // 28xxx: authentication; 3D000: no such database; 57P03: starting up or shutting down.
  if (!reachability.includes(code) && !code.startsWith('28') && code !== '3D000' && code !== '57P03') return null;
  let where = 'the database';
  if (url) {
    try {
      const u = new URL(url);
      where = `the database at ${u.hostname}:${u.port || '5432'}${u.pathname}`;
    } catch {
      // keep the generic wording
    }
  }
  const detail = typeof e?.message === 'string' && e.message ? e.message : code;
  return `Cannot reach ${where}: ${detail}`;
}
