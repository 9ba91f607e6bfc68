import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { and, eq, sql } from 'drizzle-orm';
import { files, type FileRecord } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { claimLeasedFiles, runDueOnce, startClaimLoop, type ClaimedWork, type ClaimLoop } from '../jobs/claim-loop.js';
import { CrcDataStore } from '../uploads/crc.js';
import { isWorkspaceActive, WORKSPACE_DISABLED_MESSAGE } from '../workspaces/active.js';
import { nameFromUrl } from '../files/names.js';
import { openImportSource, type ImportSourceFailure } from './fetch-source.js';

/**
 * The importer: fetches URL imports in the worker and writes them into file storage through the
 * same CRC-keeping tus store as uploads, one storage part at a time, so an import is an upload the
 * server makes itself. Each import is claimed with FOR UPDATE SKIP LOCKED and held by a lease
 * renewed as parts land; when a worker dies its lease runs out and another worker resumes from the
 * last committed part (a ranged request when the origin supports one, else from the start). A file
 * is only marked complete by the store's `complete`, after every byte is stored and its CRC known.
 */

/** One storage part: what `receivedBytes` moves by (the spec's "32 MB or more"). */
export const IMPORT_PART_BYTES = 32 * 1024 * 1024;

type ImporterServices = Services;

/** Claims up to `limit` imports nobody holds (never started, or their worker's lease ran out). */
export async function claimDueImports(services: Pick<Services, 'db' | 'clock' | 'config'>, limit: number): Promise<string[]> {
  const now = services.clock.now();
  const leaseUntil = new Date(now.getTime() + services.config.IMPORT_LEASE_SECONDS * 1000);
  return claimLeasedFiles(services.db, {
    lease: 'import_lease_until',
    attempts: 'import_attempts',
    // A fresh holder token per claim: a worker that froze past its lease finds the import taken (stillHeld).
    also: sql`import_lease_holder = gen_random_uuid()::text`,
    due: sql`state = 'importing'`,
    order: sql`seq`,
    now,
    until: leaseUntil,
    limit,
  });
}

/** The import is still this claim's: it is importing and nobody claimed it since (after this worker froze past its lease). */
const stillHeld = (row: Pick<FileRecord, 'id' | 'importLeaseHolder'>) =>
  and(eq(files.id, row.id), eq(files.state, 'importing'), row.importLeaseHolder ? eq(files.importLeaseHolder, row.importLeaseHolder) : undefined);

/** Another worker took the import over: this one stops at once, writing and deciding nothing more. */
class LeaseLost extends Error {}

/** Keeps the lease of an import being fetched; throws LeaseLost when it is no longer this claim's. */
async function renewLease(services: ImporterServices, row: FileRecord) {
  const until = new Date(services.clock.now().getTime() + services.config.IMPORT_LEASE_SECONDS * 1000);
  const renewed = await services.db.update(files).set({ importLeaseUntil: until }).where(stillHeld(row)).returning({ id: files.id });
  if (renewed.length === 0) throw new LeaseLost(`import ${row.id} is no longer held by this worker`);
}

/** Gives the import up: `failed` with a reason a person can read; the owner is told. */
async function failImport(services: ImporterServices, store: CrcDataStore, row: FileRecord, error: string) {
  const [failed] = await services.db.update(files).set({ state: 'failed', error, importLeaseUntil: null }).where(stillHeld(row)).returning();
  if (!failed) return;
  await store.remove(row.id).catch(() => undefined);
  await services.storage.delete(row.id).catch(() => undefined);
  services.log.info({ fileId: row.id, error }, 'URL import failed');
  await services.owners.of(failed.ownerKind).importFailed(services, failed);
}

/**
 * A failure worth another try later (the origin timed out, dropped the connection or answered 5xx):
 * the reason is kept, and the lease left to run out, so the next attempt waits a while (longer each
 * time) and resumes. Past IMPORT_ATTEMPTS, the import fails for good.
 */
async function retryLater(services: ImporterServices, store: CrcDataStore, row: FileRecord, error: string) {
  if (row.importAttempts >= services.config.IMPORT_ATTEMPTS) {
    await failImport(services, store, row, `${error} (gave up after ${row.importAttempts} attempts)`);
    return;
  }
  const waitSeconds = Math.min(3600, 15 * 2 ** (row.importAttempts - 1));
  await services.db
    .update(files)
    .set({ error, importLeaseUntil: new Date(services.clock.now().getTime() + waitSeconds * 1000) })
    .where(stillHeld(row));
  services.log.warn({ fileId: row.id, error, attempt: row.importAttempts, retryInSeconds: waitSeconds }, 'URL import will be tried again');
}

/**
 * The import's workspace must still be active (workspaces/active.ts), before anything is fetched and
 * after every part: once the operator disables it, the import fails for good with this reason and
 * nothing more is fetched or stored.
 */
async function assertWorkspaceActive(services: ImporterServices, row: FileRecord) {
  if (await isWorkspaceActive(services.db, row.workspaceId)) return;
  throw Object.assign(new Error(`${WORKSPACE_DISABLED_MESSAGE}; the import was stopped.`), { reason: 'workspace_disabled' });
}

const TRANSIENT: ReadonlySet<ImportSourceFailure['reason']> = new Set(['timeout', 'idle_timeout', 'connection_error', 'dns_failure', 'server_error']);

/** Splits a body into consecutive parts of exactly the asked lengths, never holding more than a chunk. */
class PartReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private rest: Buffer | null = null;

  constructor(body: Readable) {
    this.chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  part(length: number): Readable {
    return Readable.from(this.bytes(length), { objectMode: false });
  }

  private async *bytes(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      let chunk = this.rest;
      this.rest = null;
      if (!chunk) {
        const next = await this.chunks.next();
        if (next.done) return;
        chunk = next.value;
      }
      if (chunk.length > left) {
        this.rest = chunk.subarray(left);
        chunk = chunk.subarray(0, left);
      }
      left -= chunk.length;
      yield chunk;
    }
  }

  /** After the last part: the body must end here (a byte more is an error, raised by the source's length guard). */
  async end(): Promise<void> {
    if (this.rest && this.rest.length > 0) throw Object.assign(new Error('The server sent more bytes than expected.'), { reason: 'longer_than_declared' });
    const next = await this.chunks.next();
    if (!next.done) throw Object.assign(new Error('The server sent more bytes than expected.'), { reason: 'longer_than_declared' });
  }
}

/** Fetches one claimed import to its end (or to a failure, or to a retry later). Never throws. */
export async function runImport(services: ImporterServices, store: CrcDataStore, fileId: string): Promise<void> {
  const [row] = await services.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.state, 'importing')));
  if (!row || !row.importUrl) return;
  // The lease is renewed on a clock as well as per part: one part from a slow origin can take longer than a lease.
  const keepLease = setInterval(
    () => void renewLease(services, row).catch((err: unknown) => services.log.warn({ err, fileId }, 'could not renew an import lease')),
    Math.max(1000, (services.config.IMPORT_LEASE_SECONDS * 1000) / 3),
  );
  try {
    await fetchInto(services, store, row);
  } catch (err) {
    clearInterval(keepLease);
    if (err instanceof LeaseLost) {
      services.log.warn({ fileId }, 'URL import taken over by another worker; this one stops');
      return;
    }
    services.log.warn({ err, fileId }, 'URL import stopped');
    const message = err instanceof Error ? err.message : 'The import stopped';
    const reason = (err as { reason?: ImportSourceFailure['reason'] }).reason;
    if (reason && !TRANSIENT.has(reason)) await failImport(services, store, row, message);
    else await retryLater(services, store, row, message);
  } finally {
    clearInterval(keepLease);
  }
}

async function storedOffset(store: CrcDataStore, id: string): Promise<number | null> {
  try {
    return (await store.getUpload(id)).offset;
  } catch {
    return null;
  }
}

async function fetchInto(services: ImporterServices, store: CrcDataStore, row: FileRecord) {
  const id = row.id;
  let offset = await storedOffset(store, id);
  // Resuming needs the origin's validator (the same bytes) and a known size; otherwise start over.
  if (offset !== null && (offset === 0 || !row.importValidator || row.sizeBytes === 0)) {
    await store.remove(id);
    offset = null;
  }
  await assertWorkspaceActive(services, row);
  const ceiling = await services.owners.of(row.ownerKind).importCeiling(services, row);
  const source = await openImportSource(
    row.importUrl!,
    {
      allowInsecure: services.config.IMPORTS_ALLOW_INSECURE,
      expectedSize: row.sizeBytes > 0 ? row.sizeBytes : undefined,
      maxBytes: ceiling,
      from: offset !== null && row.importValidator ? { offset, validator: row.importValidator } : undefined,
      idleTimeoutMs: services.config.IMPORT_IDLE_TIMEOUT_SECONDS * 1000,
      deadlineMs: services.config.IMPORT_TIMEOUT_SECONDS * 1000,
    },
    services.outbound,
  );
  if (!source.ok) {
    if (TRANSIENT.has(source.reason)) await retryLater(services, store, row, source.message);
    else await failImport(services, store, row, source.message);
    return;
  }
  try {
    if (!source.resumed && offset !== null) {
      // The origin sent the whole file again (no range support, or it changed): start over.
      await store.remove(id);
      offset = null;
    }
    const size = row.sizeBytes > 0 ? row.sizeBytes : source.totalSize;
    if (size === null) {
      await failImport(services, store, row, 'The server did not say how large the file is; give the import its size.');
      return;
    }
    if (offset === null) {
      // What the caller left out, the origin may tell: its name for the file and its type.
      const named = row.name === nameFromUrl(row.importUrl!) && source.suggestedName ? source.suggestedName : row.name;
      const typed = row.mimeType === 'application/octet-stream' && source.contentType ? source.contentType : row.mimeType;
      await services.db
        .update(files)
        .set({ sizeBytes: size, name: named, mimeType: typed, importValidator: source.acceptsRanges ? source.validator : null })
        .where(eq(files.id, id));
      await store.create(new Upload({ id, size, offset: 0, metadata: {}, creation_date: services.clock.now().toISOString() }));
      offset = 0;
    }

    const parts = new PartReader(source.body);
    while (offset < size) {
      offset = await store.write(parts.part(Math.min(IMPORT_PART_BYTES, size - offset)), id, offset);
      await assertWorkspaceActive(services, row);
      await renewLease(services, row);
    }
    // The body must end here: a longer one is refused by the source as it streams.
    await parts.end();
    await source.finished();
  } finally {
    source.close();
  }
  // Completed only by the worker that still holds it.
  await renewLease(services, row);
  await store.complete(id);
}

/** Claiming and fetching imports, written through one CRC-keeping tus store. */
function importing(services: ImporterServices): ClaimedWork {
  const store = new CrcDataStore(services.storage.tusStore(), services);
  return { claim: (limit) => claimDueImports(services, limit), run: (id) => runImport(services, store, id) };
}

/** The importer loop of a worker: claims due imports and fetches up to IMPORT_CONCURRENCY at once. */
export function startImporter(services: ImporterServices): ClaimLoop {
  return startClaimLoop(services, { name: 'importer', concurrency: services.config.IMPORT_CONCURRENCY, pollMs: services.config.IMPORT_POLL_INTERVAL_MS, ...importing(services) });
}

/** Fetches every import due now, to its end, and returns how many were claimed: one pass of the loop, for tests and tools. */
export function importDueNow(services: ImporterServices, limit = 100): Promise<number> {
  return runDueOnce(importing(services), limit);
}
