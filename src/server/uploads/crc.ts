import { Readable, Transform } from 'node:stream';
import { crc32 } from '@node-rs/crc32';
import { DataStore, ERRORS, type Upload } from '@tus/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { preparedQuery } from '../db/prepared.js';
import { files, type FileRecord } from '../db/schema/index.js';
import type { Services } from '../services.js';
import type { FileStorage } from '../storage/storage.js';
import { isTusError, refuse } from './refusals.js';

/**
 * CRC-32 (IEEE) of every upload, computed while its bytes arrive.
 *
 * `files.crc_state` is the running CRC of the first `crc_offset` bytes. Each PATCH
 * continues it, as long as `crc_offset` equals the offset the PATCH writes at; the new state is
 * saved with `UPDATE … WHERE crc_offset = <the offset it continued from>`, so a stale or concurrent
 * writer can never overwrite a newer state. When the running state cannot be trusted (a crash or a
 * failed write left bytes on disk the database never counted, or the database is ahead of the disk),
 * the missing range is read back from storage and the state repaired before going on. Where storage
 * cannot read an upload before it is finished (S3: the parts of a multipart upload are not objects
 * yet), the running state is left behind instead and the CRC is taken from one read of the finished
 * object. Files are streamed, never buffered.
 *
 * Nothing here knows what owns a file: on completion the owner's `fileCompleted` hook runs.
 */


/** A file whose bytes may still be written: a tus upload, or a URL import (which writes through this store too). */
const RECEIVING: readonly FileRecord['state'][] = ['uploading', 'importing'];
const receiving = inArray(files.state, [...RECEIVING]);
const fileById = preparedQuery('upload_file_row', (db, name) => db.select().from(files).where(eq(files.id, sql.placeholder('id'))).limit(1).prepare(name));
/** Read on every PATCH. */
const runningCrcOf = preparedQuery('running_crc_of', (db, name) =>
  db.select({ crcState: files.crcState, crcOffset: files.crcOffset, state: files.state, sizeBytes: files.sizeBytes }).from(files).where(eq(files.id, sql.placeholder('id'))).limit(1).prepare(name),
);

/** 8 lower-case hex digits, as stored in `files.crc32`. */
export const crcHex = (state: number) => (state >>> 0).toString(16).padStart(8, '0');

/** Continues `initial` over the stored bytes [start, end) of `key`. Throws if storage holds fewer. */
export async function crcOfStoredRange(storage: FileStorage, key: string, start: number, end: number, initial: number): Promise<number> {
  let state = initial >>> 0;
  if (end <= start) return state;
  let read = 0;
  for await (const chunk of storage.read(key, { start, end: end - 1 })) {
    const buf = chunk as Buffer;
    state = crc32(buf, state);
    read += buf.length;
  }
  if (read !== end - start) throw new Error(`storage returned ${read} of ${end - start} bytes of ${key} from ${start}`);
  return state;
}

interface CrcRow {
  crcState: number;
  crcOffset: number;
}

/**
 * A @tus/server data store that wraps another (the storage's FileStore) and keeps the running CRC
 * of each upload in the database. Upload ids are file ids, so `id` is also the `files` id
 * and the storage key.
 */
export class CrcDataStore extends DataStore {
  /**
   * Uploads whose running state was repaired from storage in this process. Their final CRC is
   * checked against a full read of the stored file; uploads that were trusted throughout are not
   * reread on completion.
   */
  private readonly repaired = new Set<string>();
  /**
   * The CRC of uploads whose last bytes this process has just written: complete() follows at once
   * (tus calls it when the offset reaches the size) and saves it with the file's completion, one
   * UPDATE instead of two. Should it never run (a crash), the state is repaired from storage.
   */
  private readonly finished = new Map<string, { state: number; offset: number }>();

  constructor(
    private readonly inner: DataStore,
    private readonly services: Services,
  ) {
    super();
    // No creation-defer-length: every upload has its registered size from the start.
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  /** True when an upload for this id was already created (its bytes or its tus record exist). */
  async exists(id: string): Promise<boolean> {
    try {
      await this.inner.getUpload(id);
      return true;
    } catch {
      // A record without bytes can be created afresh; bytes without a record (a creation that
      // crashed half-way leaves an empty file) only count when there are any.
      return ((await this.services.storage.size(id)) ?? 0) > 0;
    }
  }

  override async create(upload: Upload): Promise<Upload> {
    // Creating again would truncate the bytes received so far. @tus/server holds the upload's
    // lock around create(), so this check and the creation do not interleave in one process.
    if (await this.exists(upload.id)) {
      throw refuse('upload_exists');
    }
    const created = await this.inner.create(upload);
    // A new file's saved state is at 0 already; one left elsewhere (bytes lost with their tus
    // record) is repaired from storage by the first PATCH, so creation writes nothing here.
    this.forget(upload.id);
    return created;
  }

  override async remove(id: string): Promise<void> {
    await this.inner.remove(id);
    await this.resetCrc(id);
  }

  private forget(id: string) {
    this.repaired.delete(id);
    this.finished.delete(id);
  }

  private async resetCrc(id: string) {
    this.forget(id);
    await this.services.db
      .update(files)
      .set({ crcState: 0, crcOffset: 0 })
      .where(and(eq(files.id, id), receiving));
  }

  override getUpload(id: string): Promise<Upload> {
    return this.inner.getUpload(id);
  }

  override async declareUploadLength(): Promise<void> {
    throw ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION;
  }

  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }

  override getExpiration(): number {
    return this.inner.getExpiration();
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { state: from, sizeBytes } = await this.stateAt(id, offset);
    // Untracked: the bytes go straight through; completion reads the finished object instead.
    if (from === null) return this.inner.write(readable, id, offset);
    let state = from;
    let seen = 0;
    const hasher = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        state = crc32(chunk, state);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    let sourceError: unknown;
    readable.once('error', (err) => {
      sourceError = err;
      hasher.destroy(err);
    });

    let newOffset: number;
    try {
      newOffset = await this.inner.write(readable.pipe(hasher), id, offset);
    } catch (err) {
      // The bytes that reached the disk are unknown now: the saved state stays where it was and
      // the next PATCH (or the completion) repairs it from storage. A refusal raised upstream
      // (the body running past the upload's length) is more useful to the client than the
      // store's generic write error.
      if (isTusError(sourceError)) throw sourceError;
      throw err;
    }

    if (newOffset - offset !== seen) {
      this.services.log.warn({ fileId: id, offset, newOffset, seen }, 'upload CRC saw other bytes than were written; will repair');
      return newOffset;
    }
    if (newOffset === sizeBytes) {
      if (this.finished.size >= 10_000) this.finished.clear();
      this.finished.set(id, { state, offset: newOffset });
      return newOffset;
    }
    try {
      await this.services.db
        .update(files)
        .set({ crcState: state, crcOffset: newOffset })
        .where(and(eq(files.id, id), eq(files.crcOffset, offset)));
    } catch (err) {
      // The bytes are stored; a state that was not saved is repaired from storage later.
      this.services.log.error({ err, fileId: id }, 'could not save the running upload CRC');
    }
    return newOffset;
  }

  /**
   * The running CRC of the first `offset` bytes, repaired from storage if the saved one is
   * elsewhere; null when it is elsewhere and storage cannot read an unfinished upload. With the
   * file's size.
   */
  private async stateAt(id: string, offset: number): Promise<{ state: number | null; sizeBytes: number }> {
    const [row] = await runningCrcOf(this.services.db).execute({ id });
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (!RECEIVING.includes(row.state)) {
      throw refuse('upload_complete');
    }
    const { sizeBytes } = row;
    if (row.crcOffset === offset) return { state: row.crcState, sizeBytes };
    if (!this.services.storage.readsUnfinishedUploads) return { state: null, sizeBytes };
    return { state: await this.repair(id, row, offset), sizeBytes };
  }

  /**
   * Brings the saved state to `upTo` by reading the stored bytes it has not counted, continuing
   * from the saved state (from zero if the saved state is past `upTo`, i.e. the disk lost bytes).
   */
  private async repair(id: string, row: CrcRow, upTo: number): Promise<number> {
    const resume = row.crcOffset <= upTo;
    const from = resume ? row.crcOffset : 0;
    const state = await crcOfStoredRange(this.services.storage, id, from, upTo, resume ? row.crcState : 0);
    await this.services.db
      .update(files)
      .set({ crcState: state, crcOffset: upTo })
      .where(and(eq(files.id, id), eq(files.crcOffset, row.crcOffset)));
    this.repaired.add(id);
    this.services.log.warn({ fileId: id, savedOffset: row.crcOffset, from, to: upTo }, 'upload CRC repaired from storage');
    return state;
  }

  /**
   * Marks the file complete once all its bytes are stored: final CRC, `completedAt`, then the
   * owner's completion hook (a transfer: `transfer.ready` if this was the last file of a sent
   * transfer). Idempotent; returns whether the file is complete.
   */
  async complete(id: string): Promise<boolean> {
    const { db, clock, log, storage } = this.services;
    const [row] = await fileById(db).execute({ id });
    if (!row) return false;
    let file = row;
    if (RECEIVING.includes(row.state)) {
      const stored = (await this.inner.getUpload(id)).offset;
      if (stored !== row.sizeBytes) {
        log.warn({ fileId: id, stored, size: row.sizeBytes }, 'upload asked to complete before all its bytes were stored');
        return false;
      }
      // An empty file never gets a byte written: on S3 no object exists until one is put.
      if (stored === 0 && (await storage.size(id)) === null) await storage.write(id, Readable.from([]));
      const finished = this.finished.get(id);
      this.finished.delete(id);
      let state = row.crcOffset === stored ? row.crcState : finished?.offset === stored ? finished.state : await this.repair(id, row, stored);
      if (this.repaired.has(id)) {
        const full = await crcOfStoredRange(storage, id, 0, stored, 0);
        if (full !== state) {
          log.error({ fileId: id, running: crcHex(state), stored: crcHex(full) }, 'repaired upload CRC disagrees with the stored bytes; using the stored bytes');
          state = full;
        }
      }
      const [completed] = await db
        .update(files)
        .set({ state: 'complete', crc32: crcHex(state), crcState: state, crcOffset: stored, completedAt: clock.now(), error: null, importLeaseUntil: null })
        .where(and(eq(files.id, id), receiving))
        .returning();
      this.repaired.delete(id);
      if (completed) file = completed;
    } else if (row.state !== 'complete') {
      return false;
    }
    // Also when it was complete already: a crash between the two steps must not lose the owner's event.
    await this.services.owners.of(file.ownerKind).fileCompleted(this.services, file);
    return true;
  }
}
