// @module-tag scale-out — upload locks between instances in PostgreSQL
import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock } from '@tus/server';
import pg from 'pg';
import { afterEach, expect, inject, it, vi } from 'vitest';
import { PgLocker } from './pg-locker.js';

// Each PgLocker stands for one server process: its own pool and its own listener. They share the
// run's PostgreSQL, as instances behind a load balancer share theirs.

const lockers: PgLocker[] = [];
afterEach(async () => {
  await Promise.all(lockers.splice(0).map((l) => l.close()));
});

/** The admin URL with an application_name, so a test can find its locker's connections. */
function urlNamed(name: string): string {
  const url = new URL(inject('databaseAdminUrl'));
  url.searchParams.set('application_name', name);
  return url.toString();
}

function newLocker(options: { acquireLockTimeout?: number; maxConnections?: number; name?: string } = {}): PgLocker {
  const { name = `pg-locker-test-${randomUUID().slice(0, 8)}`, ...rest } = options;
  const locker = new PgLocker({ connectionString: urlNamed(name), ...rest });
  lockers.push(locker);
  return locker;
}

async function adminQuery<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: inject('databaseAdminUrl') });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A promise whose outcome can be looked at without awaiting it (and whose rejection is never unhandled). */
function watch(promise: Promise<void>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

const signal = () => new AbortController().signal;
const noRelease = () => undefined;
/** Long enough that only a real release (not a time-out) lets a waiter through within the test. */
const PATIENT = 60_000;

async function holding(locker: PgLocker, id: string, requestRelease: () => void = noRelease): Promise<Lock> {
  const lock = locker.newLock(id);
  await lock.lock(signal(), requestRelease);
  return lock;
}

it('asks a holder on another instance to let go, and hands the lock over once it does', async () => {
  const a = newLocker();
  const b = newLocker({ acquireLockTimeout: PATIENT });
  const id = randomUUID();
  const released = vi.fn();
  const held = await holding(a, id, released);

  const wanted = b.newLock(id);
  const waiting = watch(wanted.lock(signal(), noRelease));
  await vi.waitFor(() => expect(released).toHaveBeenCalled(), { timeout: 10_000 });
  expect(waiting.settled).toBe(false);

  await held.unlock();
  await waiting.promise;
  // And now it is B's: A waits in turn, and B is the one asked to let go.
  const releasedB = vi.fn();
  await wanted.unlock();
  const again = await holding(b, id, releasedB);
  const wantedByA = a.newLock(id);
  const aWaiting = watch(wantedByA.lock(signal(), noRelease));
  await vi.waitFor(() => expect(releasedB).toHaveBeenCalled(), { timeout: 10_000 });
  expect(aWaiting.settled).toBe(false);
  await again.unlock();
  await aWaiting.promise;
  await wantedByA.unlock();
});

it('asks a holder in the same process to let go', async () => {
  const locker = newLocker({ acquireLockTimeout: PATIENT });
  const id = randomUUID();
  const released = vi.fn();
  const first = await holding(locker, id, released);

  const second = locker.newLock(id);
  const waiting = watch(second.lock(signal(), noRelease));
  await vi.waitFor(() => expect(released).toHaveBeenCalled(), { timeout: 10_000 });
  expect(waiting.settled).toBe(false);

  await first.unlock();
  await waiting.promise;
  await second.unlock();
});

it('does not make uploads with different ids wait for each other', async () => {
  const a = newLocker();
  const b = newLocker({ acquireLockTimeout: 5_000 });
  const released = vi.fn();
  const x = await holding(a, randomUUID(), released);

  // Would time out (and reject) if Y waited for X.
  const y = await holding(b, randomUUID());
  const alsoY = await holding(a, randomUUID());
  expect(released).not.toHaveBeenCalled();
  await Promise.all([x.unlock(), y.unlock(), alsoY.unlock()]);
});

it('gives up with the tus lock time-out when the holder never lets go', async () => {
  const a = newLocker();
  const b = newLocker({ acquireLockTimeout: 300 });
  const id = randomUUID();
  const released = vi.fn();
  const held = await holding(a, id, released);

  await expect(b.newLock(id).lock(signal(), noRelease)).rejects.toEqual(ERRORS.ERR_LOCK_TIMEOUT);
  expect(released).toHaveBeenCalled();
  // The holder still has it: a second attempt waits and times out just the same.
  await expect(b.newLock(id).lock(signal(), noRelease)).rejects.toEqual(ERRORS.ERR_LOCK_TIMEOUT);
  await held.unlock();
});

it('stops waiting when the request is stopped', async () => {
  const a = newLocker();
  const b = newLocker({ acquireLockTimeout: PATIENT });
  const id = randomUUID();
  const released = vi.fn();
  const held = await holding(a, id, released);

  const stop = new AbortController();
  const waiting = b.newLock(id).lock(stop.signal, noRelease);
  await vi.waitFor(() => expect(released).toHaveBeenCalled(), { timeout: 10_000 });
  stop.abort();
  await expect(waiting).rejects.toEqual(ERRORS.ERR_LOCK_TIMEOUT);

  // The stopped waiter took nothing: once A lets go, anyone can lock it without waiting.
  await held.unlock();
  const c = newLocker({ acquireLockTimeout: 5_000 });
  await (await holding(c, id)).unlock();
});

it('locks again after unlocking, on the same lock or a new one, here or on another instance', async () => {
  const a = newLocker({ acquireLockTimeout: 5_000 });
  const b = newLocker({ acquireLockTimeout: 5_000 });
  const id = randomUUID();

  const lock = a.newLock(id);
  await lock.lock(signal(), noRelease);
  await lock.unlock();
  await lock.lock(signal(), noRelease);
  await lock.unlock();
  await (await holding(a, id)).unlock();
  // The advisory lock itself was released, not only forgotten by this instance.
  await (await holding(b, id)).unlock();
});

it('closes every connection it opened', async () => {
  const name = `pg-locker-close-${randomUUID().slice(0, 8)}`;
  const locker = newLocker({ name });
  const other = newLocker({ acquireLockTimeout: PATIENT });
  const id = randomUUID();
  const held = await holding(locker, id);
  // A waiter elsewhere makes the closing locker's listener take part too.
  const wanted = other.newLock(id);
  const waiting = wanted.lock(signal(), noRelease);
  await held.unlock();
  await waiting;
  await wanted.unlock();

  const connections = () => adminQuery<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [name]);
  expect((await connections())[0]?.n).toBeGreaterThan(0);
  await locker.close();
  await vi.waitFor(async () => expect((await connections())[0]?.n).toBe(0), { timeout: 10_000 });
});

it('counts waiting for one of its connections toward the time-out, and stops that wait too', async () => {
  const locker = newLocker({ maxConnections: 1, acquireLockTimeout: 1_000 });
  const held = await holding(locker, randomUUID());

  // Another upload, but every connection is taken.
  await expect(locker.newLock(randomUUID()).lock(signal(), noRelease)).rejects.toEqual(ERRORS.ERR_LOCK_TIMEOUT);
  const patient = newLocker({ maxConnections: 1, acquireLockTimeout: PATIENT });
  const heldByPatient = await holding(patient, randomUUID());
  const stop = new AbortController();
  const waiting = watch(patient.newLock(randomUUID()).lock(stop.signal, noRelease));
  stop.abort();
  await expect(waiting.promise).rejects.toEqual(ERRORS.ERR_LOCK_TIMEOUT);

  // The connection is still there for the next upload once the first one is done.
  await held.unlock();
  await (await holding(locker, randomUUID())).unlock();
  await heldByPatient.unlock();
});

it('survives losing a held connection: the holder is asked to stop, unlock() succeeds, the lock is free', async () => {
  const name = `pg-locker-lost-${randomUUID().slice(0, 8)}`;
  const locker = newLocker({ name, acquireLockTimeout: 5_000 });
  const id = randomUUID();
  const released = vi.fn();
  const held = await holding(locker, id, released);

  const ended = await adminQuery(
    `SELECT pg_terminate_backend(pid) FROM pg_locks JOIN pg_stat_activity USING (pid) WHERE locktype = 'advisory' AND application_name = $1`,
    [name],
  );
  expect(ended).toHaveLength(1);
  // PostgreSQL dropped the lock with the connection, so another instance may write now.
  await vi.waitFor(() => expect(released).toHaveBeenCalled(), { timeout: 10_000 });
  await held.unlock();

  await (await holding(newLocker({ acquireLockTimeout: 5_000 }), id)).unlock();
  await (await holding(locker, id)).unlock();
});

it('drops the locks still held when it is closed, instead of waiting for them', async () => {
  const locker = newLocker();
  const id = randomUUID();
  const held = await holding(locker, id);

  await locker.close();
  await (await holding(newLocker({ acquireLockTimeout: 5_000 }), id)).unlock();
  // The request that held it unlocks late, after the shutdown; that is not an error.
  await held.unlock();
});

it('hears release requests again after losing its listening connection', async () => {
  const name = `pg-locker-listener-${randomUUID().slice(0, 8)}`;
  const a = newLocker({ name });
  const b = newLocker({ acquireLockTimeout: PATIENT });
  await (await holding(a, randomUUID())).unlock();
  const listeners = () => adminQuery<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`, [name]);
  const [before] = await listeners();
  await adminQuery('SELECT pg_terminate_backend($1)', [before?.pid]);
  // Back without waiting for another lock to need it.
  await vi.waitFor(
    async () => {
      const now = await listeners();
      expect(now).toHaveLength(1);
      expect(now[0]?.pid).not.toBe(before?.pid);
    },
    { timeout: 10_000 },
  );

  const id = randomUUID();
  const released = vi.fn();
  const held = await holding(a, id, released);
  const wanted = b.newLock(id);
  const waiting = wanted.lock(signal(), noRelease);
  await vi.waitFor(() => expect(released).toHaveBeenCalled(), { timeout: 10_000 });
  await held.unlock();
  await waiting;
  await wanted.unlock();
});
