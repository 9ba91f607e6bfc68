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
 * locker's own small pool (never the application's) until it is released. At the pool's cap a
 * request waits for a connection, and that wait counts toward the acquire time-out (and ends when
 * the request is stopped). If a held connection dies, PostgreSQL drops the lock with it: the holder
 * is asked to let go, since another instance may take the lock now, and unlock() still succeeds.
 * Acquiring polls `pg_try_advisory_lock` rather than blocking a connection in `pg_advisory_lock`,
 * so a stopped request stops waiting at once.
 */

const CHANNEL = 'tus_lock_release';

/**
 * A stable 64-bit key per upload id: the first 8 bytes of the SHA-256 of `tus:<id>`, as a signed
 * bigint (the type the advisory lock functions take). The prefix keeps the keys apart from other
 * users of advisory locks in the same database (pg-boss); a collision between two uploads only
 * makes them take turns.
 */
export const advisoryKey = (id: string) => createHash('sha256').update(`tus:${id}`).digest().readBigInt64BE(0).toString();

export interface PgLockerOptions {
  connectionString: string;
  /** How long a request waits for a lock, a free connection included, before tus gives up. */
  acquireLockTimeout?: number;
  /** Connections the locker may hold at once: at most this many uploads are written at the same time. */
  maxConnections?: number;
}

interface Held {
  client: pg.PoolClient;
  requestRelease: RequestRelease;
}

/** Calls a holder's release request; what it does with it is its own business, never an unhandled rejection. */
const ask = (requestRelease: RequestRelease | undefined) => {
  if (!requestRelease) return;
  void Promise.resolve()
    .then(requestRelease)
    .catch(() => undefined);
};

/** Resolves after `ms`, or rejects with the lock time-out as soon as `stop` aborts. */
function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stop.aborted) return reject(ERRORS.ERR_LOCK_TIMEOUT);
    const onAbort = () => {
      clearTimeout(timer);
      reject(ERRORS.ERR_LOCK_TIMEOUT);
    };
    const timer = setTimeout(() => {
      stop.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    stop.addEventListener('abort', onAbort, { once: true });
  });
}

export class PgLocker implements Locker {
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private closed = false;
  private relistenTimer: NodeJS.Timeout | undefined;
  /** The locks this process holds, by upload id. */
  private readonly held = new Map<string, Held>();
  readonly acquireLockTimeout: number;

  constructor(private readonly options: PgLockerOptions) {
    this.acquireLockTimeout = options.acquireLockTimeout ?? 30_000;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 50,
      // A request that gave up waiting for a connection leaves its place in pg-pool's queue; this
      // bounds how long that place is kept.
      connectionTimeoutMillis: this.acquireLockTimeout,
    });
    // An idle connection that loses its server must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  newLock(id: string): Lock {
    return new PgLock(this, id);
  }

  /**
   * Connects the listener on first use. A lost listener is reconnected in the background, so locks
   * held meanwhile hear release requests again (the ones sent while it was away are missed: their
   * senders wait out the time-out, and their clients retry).
   */
  listen(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the upload locker is closed'));
    this.listening ??= (async () => {
      const client = new pg.Client({ connectionString: this.options.connectionString });
      client.on('error', () => {
        void client.end().catch(() => undefined);
        if (this.listener !== client) return;
        this.listener = null;
        this.listening = null;
        this.relisten(1_000);
      });
      client.on('notification', (n) => {
        if (n.channel === CHANNEL && n.payload) ask(this.held.get(n.payload)?.requestRelease);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (err) {
        await client.end().catch(() => undefined);
        throw err;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listener = client;
    })().catch((err: unknown) => {
      this.listening = null;
      throw err;
    });
    return this.listening;
  }

  private relisten(delay: number): void {
    if (this.closed) return;
    clearTimeout(this.relistenTimer);
    this.relistenTimer = setTimeout(() => {
      this.listen().catch(() => this.relisten(Math.min(delay * 2, 30_000)));
    }, delay);
    // A database that stays away must not keep a stopping process alive.
    this.relistenTimer.unref();
  }

  /**
   * A connection of the locker's pool by `deadline`. One that arrives after the request gave up is
   * handed straight back.
   */
  async connect(deadline: number, stop: AbortSignal): Promise<pg.PoolClient> {
    const pending = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const givenUp = new Promise<never>((_, reject) => {
      const giveUp = () => reject(ERRORS.ERR_LOCK_TIMEOUT);
      timer = setTimeout(giveUp, Math.max(0, deadline - Date.now()));
      onAbort = giveUp;
      if (stop.aborted) giveUp();
      else stop.addEventListener('abort', giveUp, { once: true });
    });
    try {
      return await Promise.race([pending, givenUp]);
    } catch (err) {
      pending.then(
        (client) => client.release(),
        () => undefined,
      );
      // Running out of time in pg-pool's own queue is the same time-out to tus.
      if (err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message)) throw ERRORS.ERR_LOCK_TIMEOUT;
      throw err;
    } finally {
      clearTimeout(timer);
      if (onAbort) stop.removeEventListener('abort', onAbort);
    }
  }

  /** In this process, a holder is asked directly; elsewhere, through the channel every locker listens on. */
  async requestRelease(id: string, client: pg.PoolClient): Promise<void> {
    ask(this.held.get(id)?.requestRelease);
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
  }

  hold(id: string, held: Held): void {
    this.held.set(id, held);
  }

  forget(id: string, client: pg.PoolClient): void {
    if (this.held.get(id)?.client === client) this.held.delete(id);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Ends the listener and the pool. Locks still held are dropped with their connections, so a
   * shutdown never waits on a request that did not unlock.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.relistenTimer);
    await this.listening?.catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
    for (const { client } of this.held.values()) client.release(true);
    this.held.clear();
    await this.pool.end().catch(() => undefined);
  }
}

class PgLock implements Lock {
  private client: pg.PoolClient | null = null;
  /** Set when the held connection died: PostgreSQL has dropped the lock already. */
  private lost = false;
  private onError: (() => void) | null = null;

  constructor(
    private readonly locker: PgLocker,
    private readonly id: string,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.locker.acquireLockTimeout;
    await this.locker.listen();
    const client = await this.locker.connect(deadline, stopSignal);
    // A checked-out pg client that loses its server emits 'error'; unheard, that would crash the process.
    let lost = false;
    const onError = () => {
      lost = true;
      if (this.client === client) {
        this.lost = true;
        // The lock went with the connection: whoever holds it must stop writing.
        this.locker.forget(this.id, client);
        ask(requestRelease);
      }
    };
    client.on('error', onError);
    const key = advisoryKey(this.id);
    let asked = false;
    let wait = 50;
    try {
      for (;;) {
        // A closing locker waits for its pool's connections: it must not wait out a whole time-out.
        if (stopSignal.aborted || this.locker.isClosed) throw ERRORS.ERR_LOCK_TIMEOUT;
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
        if (rows[0]?.ok) {
          if (this.locker.isClosed) throw new Error('the upload locker is closed');
          this.client = client;
          this.lost = lost;
          this.onError = onError;
          this.locker.hold(this.id, { client, requestRelease });
          return;
        }
        if (!asked) {
          // Whoever holds it, on this instance or another, is asked to finish up.
          await this.locker.requestRelease(this.id, client);
          asked = true;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw ERRORS.ERR_LOCK_TIMEOUT;
        await pause(Math.min(wait, left), stopSignal);
        wait = Math.min(wait * 2, 500);
      }
    } catch (err) {
      if (this.client !== client) {
        client.removeListener('error', onError);
        // A connection that may hold the lock (closed locker) or that broke is not reused.
        client.release(lost || this.locker.isClosed ? true : undefined);
      }
      throw err;
    }
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.locker.forget(this.id, client);
    const onError = this.onError;
    this.onError = null;
    if (this.lost || this.locker.isClosed) {
      // Gone with its connection (or with the locker's close()), which is not reused.
      if (onError) client.removeListener('error', onError);
      if (!this.locker.isClosed) client.release(true);
      this.lost = false;
      return;
    }
    try {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryKey(this.id)]);
      if (onError) client.removeListener('error', onError);
      client.release();
    } catch (err) {
      if (onError) client.removeListener('error', onError);
      // A broken connection has dropped the lock already; it must not go back to the pool.
      client.release(err as Error);
    }
  }
}
