import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import type { Services } from '../services.js';

/**
 * Claims up to `limit` stored files that `due` selects and nobody holds (no lease, or one that ran out), oldest by
 * `order` first: each gets `lease` set to `until` and one more try counted in `attempts` (and `also`, a holder
 * token, say). FOR UPDATE SKIP LOCKED, so any number of workers share the queue without taking a file twice.
 */
export async function claimLeasedFiles(
  db: Pick<Database, 'execute'>,
  claim: { lease: string; attempts: string; due: SQL; order: SQL; now: Date; until: Date; limit: number; also?: SQL },
): Promise<string[]> {
  const lease = sql.identifier(claim.lease);
  const attempts = sql.identifier(claim.attempts);
  const result = await db.execute<{ id: string }>(sql`
    UPDATE files AS f SET ${lease} = ${claim.until}, ${attempts} = f.${attempts} + 1${claim.also ? sql`, ${claim.also}` : sql``}
    FROM (
      SELECT id FROM files
      WHERE ${claim.due} AND (${lease} IS NULL OR ${lease} <= ${claim.now})
      ORDER BY ${claim.order}
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE f.id = due.id
    RETURNING f.id`);
  return result.rows.map((r) => r.id);
}

/**
 * A worker loop over rows held by leases (URL imports, virus scans): claims up to `concurrency`
 * due ids at a time, runs each, and looks again as soon as a slot comes free, or every
 * `pollMs` when there was nothing to do. A row in flight when the loop stops is left to its lease:
 * another worker takes it over.
 */
export interface ClaimLoop {
  stop(): Promise<void>;
}

/** What a loop does: claim up to `limit` due ids (each under a lease), and run one to its end without throwing. */
export interface ClaimedWork {
  claim(limit: number): Promise<string[]>;
  run(id: string): Promise<void>;
}

/** One pass of the loop, every claimed id run to its end: for tests and tools. Returns how many were claimed. */
export async function runDueOnce(work: ClaimedWork, limit: number): Promise<number> {
  const ids = await work.claim(limit);
  await Promise.all(ids.map((id) => work.run(id)));
  return ids.length;
}

export function startClaimLoop(services: Pick<Services, 'log'>, options: ClaimedWork & { name: string; concurrency: number; pollMs: number }): ClaimLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  // One pass at a time: a run ending during a pass asks for another right after it, rather than a second pass at once.
  let passing = false;
  let again = false;
  const running = new Set<Promise<void>>();
  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
  };
  const tick = async () => {
    timer = null;
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    try {
      const free = options.concurrency - running.size;
      const ids = free > 0 ? await options.claim(free) : [];
      for (const id of ids) {
        const run = options.run(id).finally(() => {
          running.delete(run);
          // A slot came free: look again now, not at the next poll (a queue of quick items drains at their own pace).
          if (!stopped) schedule(0);
        });
        running.add(run);
      }
    } catch (err) {
      services.log.error({ err }, `${options.name} pass failed`);
    } finally {
      passing = false;
    }
    if (stopped) return;
    if (again) {
      again = false;
      schedule(0);
    } else if (!timer) schedule(options.pollMs);
  };
  timer = setTimeout(() => void tick(), 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => setTimeout(resolve, 2000))]);
    },
  };
}
