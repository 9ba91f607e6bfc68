import { and, eq, isNull, sql } from 'drizzle-orm';
import { files, type FileRecord } from '../db/schema/index.js';
import { claimLeasedFiles, runDueOnce, startClaimLoop, type ClaimedWork, type ClaimLoop } from '../jobs/claim-loop.js';
import type { Services } from '../services.js';
import { ClamdError, clamdVersion, parseClamdUrl, scanStream, type ClamdAddress } from './clamd.js';

/**
 * The virus scanner: with CLAMD_URL set, every completed file (uploaded or imported, whatever owns
 * it) is streamed from storage to clamd before anyone may download it (files/stored.ts
 * `awaitingScan`). Files are claimed with FOR UPDATE SKIP LOCKED under a lease, so several workers
 * share the queue and a crashed worker's scans are taken over. A clean file is marked `clean`; an
 * infected one `infected` with clamd's signature name, and its owner deals with it (a sent transfer
 * is blocked, a draft keeps the file marked for its sender to remove, a collection file is
 * quarantined). A scanner that is down or slow is never a reason to serve a file unscanned: the
 * scan is tried again with growing waits, for as long as it takes.
 */

type ScannerServices = Services;

/** Longest wait between two tries of one file while clamd is down. */
const MAX_RETRY_WAIT_SECONDS = 600;

export const retryWaitSeconds = (attempts: number) => Math.min(MAX_RETRY_WAIT_SECONDS, 5 * 2 ** Math.max(0, attempts - 1));

/**
 * Complete files not scanned yet whose bytes are still there, as soon as they are complete (a
 * draft's too, so that its recipients need not wait for the scan once it is sent): not those of
 * transfers that ended (purged), nor ciphertext, which a scan cannot read and `clean` would be a
 * false promise for: end-to-end encrypted transfers' files and vault files.
 */
const awaitingVerdict = sql`files.state = 'complete' AND files.scan_result IS NULL AND files.owner_kind <> 'vault'
  AND NOT (files.owner_kind = 'transfer' AND EXISTS (
    SELECT 1 FROM transfers t WHERE t.id = files.owner_id AND (t.status <> 'active' OR t.purged_at IS NOT NULL OR t.e2ee)))`;

/**
 * Claims up to `limit` files to scan: complete, not scanned, not held by another scanner (or due
 * again after a failed try). Files of transfers that ended are skipped: their bytes are gone.
 */
export async function claimDueScans(services: Pick<Services, 'db' | 'clock' | 'config'>, limit: number): Promise<string[]> {
  const now = services.clock.now();
  const leaseUntil = new Date(now.getTime() + services.config.SCAN_LEASE_SECONDS * 1000);
  return claimLeasedFiles(services.db, { lease: 'scan_lease_until', attempts: 'scan_attempts', due: awaitingVerdict, order: sql`completed_at, seq`, now, until: leaseUntil, limit });
}

/** Scans one claimed file to a verdict, or leaves it for a later try. Never throws. */
export async function runScan(services: ScannerServices, address: ClamdAddress, fileId: string): Promise<void> {
  const [row] = await services.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.state, 'complete'), isNull(files.scanResult)));
  if (!row) return;
  const started = Date.now();
  try {
    const verdict = await scanStream(address, services.storage.read(row.storageKey), services.config.SCAN_TIMEOUT_SECONDS * 1000);
    const [scanned] = await services.db
      .update(files)
      .set({ scanResult: verdict.infected ? 'infected' : 'clean', scanSignature: verdict.infected ? verdict.signature : null, scanError: null, scanLeaseUntil: null })
      .where(and(eq(files.id, row.id), isNull(files.scanResult)))
      .returning();
    if (!scanned) return;
    services.log.info({ fileId, bytes: row.sizeBytes, ms: Date.now() - started, verdict: scanned.scanResult }, 'file scanned');
    if (verdict.infected) {
      services.log.warn({ fileId, ownerKind: row.ownerKind, ownerId: row.ownerId, signature: verdict.signature }, 'malware found in a file');
      await services.owners.of(row.ownerKind).fileInfected(services, scanned, verdict.signature);
    }
  } catch (err) {
    await retryLater(services, row, err);
  }
}

/** The scan did not finish (clamd down, slow, or refusing the file): the file stays unavailable and is tried again later. */
async function retryLater(services: ScannerServices, row: FileRecord, err: unknown) {
  const waitSeconds = retryWaitSeconds(row.scanAttempts);
  const message = err instanceof Error ? err.message : String(err);
  await services.db
    .update(files)
    .set({ scanError: message.slice(0, 500), scanLeaseUntil: new Date(services.clock.now().getTime() + waitSeconds * 1000) })
    .where(and(eq(files.id, row.id), isNull(files.scanResult)))
    .catch((e: unknown) => services.log.error({ err: e, fileId: row.id }, 'could not put a scan off'));
  const reason = err instanceof ClamdError ? err.reason : 'scanner_error';
  // An operator's problem, not a user's: at error level so that it shows.
  services.log.error(
    { fileId: row.id, reason, error: message, attempt: row.scanAttempts, retryInSeconds: waitSeconds },
    'virus scan failed; the file stays unavailable until a scan succeeds',
  );
}

/** Claiming and scanning files, with the clamd of CLAMD_URL; null without one. */
function scanning(services: ScannerServices): ClaimedWork | null {
  if (!services.config.CLAMD_URL) return null;
  const address = parseClamdUrl(services.config.CLAMD_URL);
  return { claim: (limit) => claimDueScans(services, limit), run: (id) => runScan(services, address, id) };
}

/** The scanner loop of a worker (only with CLAMD_URL): claims due files and scans up to SCAN_CONCURRENCY at once. */
export function startScanner(services: ScannerServices): ClaimLoop | null {
  const work = scanning(services);
  if (!work) return null;
  return startClaimLoop(services, { name: 'scanner', concurrency: services.config.SCAN_CONCURRENCY, pollMs: services.config.SCAN_POLL_INTERVAL_MS, ...work });
}

/** Scans every file due now and returns how many were claimed: one pass of the loop, for tests and tools. */
export async function scanDueNow(services: ScannerServices, limit = 100): Promise<number> {
  const work = scanning(services);
  return work ? runDueOnce(work, limit) : 0;
}

export interface ScannerHealth {
  status: 'ok' | 'unreachable';
  /** clamd's version line when it answered. */
  version: string | null;
  error: string | null;
  /** Complete files not scanned yet (their downloads wait). */
  waiting: number;
  /** Of those, files whose last scan failed and that wait for their next try. */
  retrying: number;
  /** The latest failure among those, as the worker logged it. */
  lastFailure: string | null;
}

/** What the health endpoint says of scanning: whether clamd answers now, and how many files wait. */
export async function scannerHealth(services: Pick<Services, 'db' | 'clock' | 'config'>): Promise<ScannerHealth | null> {
  if (!services.config.CLAMD_URL) return null;
  const [queue] = await services.db
    .select({
      waiting: sql<number>`count(*)`.mapWith(Number),
      retrying: sql<number>`count(${files.scanError})`.mapWith(Number),
      lastFailure: sql<string | null>`(array_agg(${files.scanError} order by ${files.scanLeaseUntil} desc) filter (where ${files.scanError} is not null))[1]`,
    })
    .from(files)
    .where(awaitingVerdict);
  const waiting = { waiting: queue?.waiting ?? 0, retrying: queue?.retrying ?? 0, lastFailure: queue?.lastFailure ?? null };
  try {
    const version = await clamdVersion(parseClamdUrl(services.config.CLAMD_URL), 3000);
    return { status: 'ok', version, error: null, ...waiting };
  } catch (err) {
    return { status: 'unreachable', version: null, error: (err as Error).message, ...waiting };
  }
}
