import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/server';

/**
 * Where file bytes live. Keys are file ids. The tus endpoint writes through `tusStore()`; downloads
 * read through `read()`. Disk is the default; an S3-compatible bucket (s3.ts) implements the same
 * interface.
 */
export interface FileStorage {
  readonly kind: 'disk' | 's3';
  /**
   * Whether `read` can read an upload that is not finished yet. Disk can (the bytes are a file as
   * they arrive); S3 cannot (a multipart upload's parts are no object until it completes), so the
   * CRC of an upload whose running state was lost is taken from the finished object instead.
   */
  readonly readsUnfinishedUploads: boolean;
  /** The @tus/server data store that writes uploads into this storage. */
  tusStore(): DataStore;
  /** Bytes `start` to `end` inclusive (the whole file without a range). Streams; never buffers the file. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Bytes stored so far, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** Stores a whole file made by the server (a thumbnail), replacing any; readers never see half of it. Returns its size. */
  write(key: string, source: Readable): Promise<number>;
  delete(key: string): Promise<void>;
  /** Throws unless the storage can be used now (checked before the server listens). */
  check(): Promise<void>;
  /**
   * Deletes the bytes of every key nobody has written to since `before` that `referenced` does not
   * claim (it is given keys in batches and returns those still in use), with whatever a store keeps
   * beside them, and temporary files of writes that never finished. Returns how many keys it deleted.
   */
  sweepUnreferenced(before: Date, referenced: (keys: string[]) => Promise<Set<string>>): Promise<number>;
  /**
   * A URL that serves the stored file by itself for `expiresInSeconds`, with these response
   * headers; only storage that can (S3) has it.
   */
  presignedUrl?(key: string, options: { contentDisposition: string; contentType: string; expiresInSeconds: number }): Promise<string>;
}

const SAFE_KEY = /^[A-Za-z0-9_-]{1,100}$/;

export function assertKey(key: string) {
  // Keys are our own ids; anything else must never become a path.
  if (!SAFE_KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}

export class DiskStorage implements FileStorage {
  readonly kind = 'disk' as const;
  readonly readsUnfinishedUploads = true;
  private store: FileStore | null = null;

  constructor(readonly directory: string) {
    fs.mkdirSync(directory, { recursive: true });
  }

  path(key: string): string {
    assertKey(key);
    return path.join(this.directory, key);
  }

  tusStore(): DataStore {
    this.store ??= new FileStore({ directory: this.directory });
    return this.store;
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.path(key), range ? { start: range.start, end: range.end, highWaterMark: 256 * 1024 } : { highWaterMark: 256 * 1024 });
  }

  async write(key: string, source: Readable): Promise<number> {
    const target = this.path(key);
    const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(source, fs.createWriteStream(partial));
      await fsp.rename(partial, target);
    } catch (err) {
      await fsp.rm(partial, { force: true });
      throw err;
    }
    return (await fsp.stat(target)).size;
  }

  async size(key: string): Promise<number | null> {
    const stat = await fsp.stat(this.path(key)).catch(() => null);
    return stat ? stat.size : null;
  }

  async check(): Promise<void> {
    await fsp.access(this.directory, fs.constants.R_OK | fs.constants.W_OK);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.path(key), { force: true });
    // @tus/file-store keeps each upload's metadata beside it.
    await fsp.rm(`${this.path(key)}.json`, { force: true });
  }

  async sweepUnreferenced(before: Date, referenced: (keys: string[]) => Promise<Set<string>>): Promise<number> {
    const stale = new Set<string>();
    const fresh = new Set<string>();
    for (const name of await fsp.readdir(this.directory)) {
      const stat = await fsp.stat(path.join(this.directory, name)).catch(() => null);
      if (!stat?.isFile()) continue;
      const old = stat.mtime < before;
      if (PARTIAL.test(name)) {
        // A write renames its partial file into place when it is done: one this old was never finished.
        if (old) await fsp.rm(path.join(this.directory, name), { force: true });
        continue;
      }
      const key = name.replace(/\.json$/, '');
      if (!SAFE_KEY.test(key)) continue;
      (old ? stale : fresh).add(key);
    }
    for (const key of fresh) stale.delete(key);
    return deleteUnreferenced(this, stale, referenced);
  }
}

/** A write's temporary file: `<key>.<12 hex digits>.partial` (see `write`). */
const PARTIAL = /^[A-Za-z0-9_-]{1,100}\.[0-9a-f]{12}\.partial$/;

/** Keys asked about at once when sweeping unreferenced bytes. */
const SWEEP_BATCH = 500;

function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The end of every storage's `sweepUnreferenced`: asks about the stale keys a batch at a time and
 * deletes those nothing references. Returns how many were deleted.
 */
export async function deleteUnreferenced(storage: Pick<FileStorage, 'delete'>, stale: Set<string>, referenced: (keys: string[]) => Promise<Set<string>>): Promise<number> {
  let deleted = 0;
  for (const batch of batches([...stale], SWEEP_BATCH)) {
    const inUse = await referenced(batch);
    for (const key of batch) {
      if (inUse.has(key)) continue;
      await storage.delete(key);
      deleted++;
    }
  }
  return deleted;
}
