import { createHash } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import pg from 'pg';

/**
 * A tus locker shared by every instance on one PostgreSQL: each upload's lock is a session-level
 * advisory lock, so two instances never write the same upload at once. A request that wants a
 * lock another request holds (on any instance) asks it to let go over LISTEN/NOTIFY, as tus
 * recommends: the holder's PATCH ends early and the client resumes from the offset it is told.
 *
 * A session advisory lock belongs to a connection, so each held lock keeps one connection of the
 * locker's own small pool (never the application's) until it is released; waiting for a free
 * connection counts toward the acquire time-out. If that connection dies, PostgreSQL drops the lock
 * with it. Acquiring polls `pg_try_advisory_lock` rather than blocking a connection in
 * `pg_advisory_lock`, so a stopped request stops waiting at once.
 */

const CHANNEL = 'tus_lock_release';

/** A stable 64-bit key per upload id: the first 8 bytes of its SHA-256, as a signed bigint. */
export const advisoryKey = (id: string) => createHash('sha256').update(`tus:${id}`).digest().readBigInt64BE(0).toString();

export interface PgLockerOptions {
  connectionString: string;
  /** How long a request waits for a lock before tus answers 423 locked. */
  acquireLockTimeout?: number;
  /** Connections the locker may hold at once: at most this many uploads are written at the same time. */
  maxConnections?: number;
}

export class PgLocker implements Locker {
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  /** Release requests for the locks this process holds, by upload id. */
  readonly held = new Map<string, RequestRelease>();
  readonly acquireLockTimeout: number;

  constructor(private readonly options: PgLockerOptions) {
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 50 });
    // An idle connection that loses its server must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.acquireLockTimeout = options.acquireLockTimeout ?? 30_000;
  }

  newLock(id: string): Lock {
    return new PgLock(this, id);
  }

  /** Connects the listener on first use; a failed listener is retried by the next lock. */
  listen(): Promise<void> {
    this.listening ??= (async () => {
      const client = new pg.Client({ connectionString: this.options.connectionString });
      client.on('error', () => {
        this.listener = null;
        this.listening = null;
      });
      client.on('notification', (n) => {
        if (n.channel === CHANNEL && n.payload) void this.held.get(n.payload)?.();
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    })().catch((err: unknown) => {
      this.listening = null;
      throw err;
    });
    return this.listening;
  }

  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  async close(): Promise<void> {
    await this.listener?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

class PgLock implements Lock {
  private client: pg.PoolClient | null = null;

  constructor(
    private readonly locker: PgLocker,
    private readonly id: string,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.locker.listen();
    const deadline = Date.now() + this.locker.acquireLockTimeout;
    const client = await this.locker.connect();
    const key = advisoryKey(this.id);
    let asked = false;
    let wait = 25;
    try {
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
        if (rows[0]?.ok) {
          this.client = client;
          this.locker.held.set(this.id, requestRelease);
          return;
        }
        if (!asked) {
          // Whoever holds it, on this instance or another, is asked to finish up.
          await client.query('SELECT pg_notify($1, $2)', [CHANNEL, this.id]);
          asked = true;
        }
        if (stopSignal.aborted || Date.now() + wait > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, 500);
      }
    } catch (err) {
      if (this.client !== client) client.release();
      throw err;
    }
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    if (this.locker.held.get(this.id)) this.locker.held.delete(this.id);
    try {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryKey(this.id)]);
      client.release();
    } catch (err) {
      // A broken connection has dropped the lock already; it must not go back to the pool.
      client.release(err as Error);
    }
  }
}
