import type { ReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { S3Store } from '@tus/s3-store';
import type { Upload } from '@tus/server';

/**
 * The tus data store for S3 storage: @tus/s3-store, with its parts held in memory instead of
 * temporary files, and two repairs of its own (termination and a completion a crash cut short).
 *
 * Why in memory. @tus/s3-store writes every part to a temporary file and uploads it from there, so
 * each byte is written to and read from the instance's disk once more, and the temporary files of
 * all uploads together are bounded by nothing but the disk. Here a part is copied into a buffer as it
 * arrives and sent from memory once full (a retry of the SDK can send it again), as the AWS SDK's own
 * multipart `Upload` does. What that costs in memory is bounded twice:
 *
 * - per upload: at most `queueSize` part buffers, the one being filled included (so at most
 *   `queueSize - 1` parts in flight while the next fills): `queueSize × partSize`;
 * - per process: all uploads' part buffers together never exceed `memoryBytes`; a part that would go
 *   past it waits for a buffer to come back (its PATCH is not read meanwhile: TCP holds the client),
 *   and a PATCH that starts while the budget is spent falls back to @tus/s3-store's temporary files
 *   rather than queue behind uploads whose clients may be slow.
 *
 * Everything else is @tus/s3-store's: the parts and their ETags as S3 lists them decide the offset and
 * complete the upload; the bytes of a PATCH that ends mid-part (a client's chunk, or a connection cut,
 * which @tus/server turns into a clean end of the body) become the upload's incomplete part
 * (`<id>.part`, under S3's 5 MiB minimum) or a part of their own, and the next PATCH starts with them.
 * An incomplete part is read back into memory (under 5 MiB), not into a temporary file.
 */
export interface S3UploadStoreOptions {
  partSize: number;
  /** Part buffers one upload may hold at once, the one being filled included (as lib-storage's `queueSize`). */
  queueSize: number;
  /** All part buffers of this process together, in bytes. */
  memoryBytes: number;
  s3ClientConfig: ConstructorParameters<typeof S3Store>[0]['s3ClientConfig'];
}

export class S3UploadStore extends S3Store {
  private readonly queueSize: number;
  readonly buffers: PartBuffers;

  constructor(options: S3UploadStoreOptions) {
    super({ partSize: options.partSize, s3ClientConfig: options.s3ClientConfig });
    this.queueSize = Math.max(1, options.queueSize);
    this.buffers = new PartBuffers(options.memoryBytes, options.partSize);
  }

  override async remove(id: string): Promise<void> {
    // Terminating also deletes the incomplete last part (`<id>.part`), which @tus/s3-store leaves
    // behind: an upload created again under the same id would otherwise start with the old bytes
    // counted in its offset.
    await super.remove(id);
    await this.client.deleteObject({ Bucket: this.bucket, Key: `${id}.part` });
  }

  /**
   * An upload counts as all there once its parts add up to its size, but its object only exists
   * once the multipart upload is completed, which the PATCH that stored the last part does next. A
   * process that died in between left every byte stored and no object: the HEAD that finds the
   * upload whole (before it is completed and read) completes it here.
   */
  override async getUpload(id: string): Promise<Upload> {
    const upload = await super.getUpload(id);
    if (upload.size !== undefined && upload.size > 0 && upload.offset === upload.size) await this.completeStoredParts(id, upload.size);
    return upload;
  }

  private async completeStoredParts(id: string, size: number): Promise<void> {
    let parts: Awaited<ReturnType<S3Store['retrieveParts']>>;
    try {
      parts = await this.retrieveParts(id);
    } catch (err) {
      // Completed already (or aborted): nothing left to assemble.
      if (['NoSuchUpload', 'NoSuchKey'].includes((err as { name?: string }).name ?? '')) return;
      throw err;
    }
    if (parts.reduce((sum, p) => sum + (p.Size ?? 0), 0) !== size) return;
    const metadata = await this.getMetadata(id);
    try {
      await this.finishMultipartUpload(metadata, parts);
    } catch (err) {
      // Another instance completed it in the meantime.
      if ((err as { name?: string }).name !== 'NoSuchUpload') throw err;
    }
    await this.completeMetadata(metadata.file);
    await this.clearCache(id);
  }

  /** The incomplete part (under S3's 5 MiB minimum part size) read into memory instead of a temporary file. */
  protected override async downloadIncompletePart(id: string): Promise<{ size: number; path: string; createReader: () => ReadStream } | undefined> {
    const body = await this.getIncompletePart(id);
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    // Typed as a file stream; `write` only pipes it (through MultiStream), which any Readable does.
    return { size: bytes.length, path: '', createReader: () => Readable.from([bytes]) as unknown as ReadStream };
  }

  /**
   * Splits one PATCH's body (after any incomplete part) into parts held in memory, uploading up to
   * `queueSize - 1` of them while the next fills. `offset` is where the body starts in the file.
   * Returns the bytes stored, as @tus/s3-store's own does.
   */
  protected override async uploadParts(metadata: Parameters<S3Store['uploadParts']>[0], readStream: Readable, currentPartNumber: number, offset: number): Promise<number> {
    const size = metadata.file.size;
    const partSize = this.calcOptimalPartSize(size);
    const firstBytes = size === undefined ? partSize : Math.min(partSize, size - offset);
    // No buffer to be had now: this PATCH goes the temporary-file way rather than wait for uploads
    // whose clients may be slow. So does one whose parts could never fit the budget.
    if (!this.buffers.tryReserve(firstBytes)) return super.uploadParts(metadata, readStream, currentPartNumber, offset);

    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    let stored = 0;
    let position = offset;
    let part: { buffer: Buffer; length: number } | null = { buffer: this.buffers.take(firstBytes), length: 0 };

    const send = (full: { buffer: Buffer; length: number }) => {
      const partNumber = currentPartNumber++;
      position += full.length;
      const isFinalPart = size === position;
      const body = full.buffer.subarray(0, full.length);
      const task = (async () => {
        try {
          if (full.length >= this.minPartSize || isFinalPart) await this.uploadPart(metadata, body, partNumber);
          else await this.client.putObject({ Bucket: this.bucket, Key: this.partKey(metadata.file.id, true), Body: body, Tagging: this.useCompleteTag('false') });
          stored += full.length;
        } catch (err) {
          failure ??= err;
        } finally {
          this.buffers.release(full.buffer);
        }
      })();
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    };

    try {
      for await (const chunk of readStream) {
        let data = chunk as Buffer;
        while (data.length > 0) {
          if (failure) throw failure;
          if (!part) {
            // The per-upload queue: the buffer about to be filled and those in flight make `queueSize`.
            while (inFlight.size > this.queueSize - 1) await Promise.race(inFlight);
            if (failure) throw failure;
            const want = size === undefined ? partSize : Math.min(partSize, size - position);
            // @tus/server's limiter stops a body at Upload-Length; a zero-length part would never fill.
            if (want <= 0) throw new Error(`upload ${metadata.file.id}: bytes past its length of ${size}`);
            part = { buffer: await this.buffers.acquire(want), length: 0 };
          }
          const n = Math.min(data.length, part.buffer.length - part.length);
          data.copy(part.buffer, part.length, 0, n);
          part.length += n;
          data = data.subarray(n);
          if (part.length === part.buffer.length) {
            send(part);
            part = null;
          }
        }
      }
      if (part && part.length > 0) {
        send(part);
        part = null;
      }
    } catch (err) {
      failure ??= err;
    } finally {
      if (part) this.buffers.release(part.buffer);
      // Never return with uploads still running in the background.
      await Promise.all(inFlight);
    }
    if (failure) throw failure;
    return stored;
  }
}

/**
 * The part buffers of one process: at most `limit` bytes of them at once. Buffers of the full part
 * size are kept for reuse while nobody else needs the room (a fresh 64 MiB buffer costs page faults
 * on every page; a reused one does not), and let go after a while unused.
 */
export class PartBuffers {
  private used = 0;
  private readonly free: Buffer[] = [];
  private readonly waiting: { bytes: number; resolve: (b: Buffer) => void }[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private inUse = 0;
  /** The most bytes held at once (in use or kept for reuse; never above `limit`), for tests and benchmarks. */
  peak = 0;
  /** The most bytes in use at once (being filled or sent). */
  peakInUse = 0;

  constructor(
    readonly limit: number,
    private readonly reusableSize: number,
    private readonly keepIdleMs = 30_000,
  ) {}

  /** Bytes of buffers in use or kept for reuse. */
  get held(): number {
    return this.used;
  }

  /** Makes room for `bytes` now if it can (for `take`), without waiting behind anyone. */
  tryReserve(bytes: number): boolean {
    if (this.waiting.length > 0) return false;
    if (bytes === this.reusableSize && this.free.length > 0) return true;
    this.shrinkFor(bytes);
    return this.used + bytes <= this.limit;
  }

  /** A buffer of `bytes` after a successful `tryReserve(bytes)`. */
  take(bytes: number): Buffer {
    this.inUse += bytes;
    this.peakInUse = Math.max(this.peakInUse, this.inUse);
    if (bytes === this.reusableSize) {
      const reused = this.free.pop();
      if (reused) return reused;
    }
    this.used += bytes;
    this.peak = Math.max(this.peak, this.used);
    return Buffer.allocUnsafeSlow(bytes);
  }

  /** A buffer of `bytes`, once the budget has room for it (first come, first served). */
  acquire(bytes: number): Promise<Buffer> {
    if (bytes > this.limit) return Promise.reject(new Error(`a part of ${bytes} bytes does not fit the part buffers' ${this.limit} bytes`));
    if (this.tryReserve(bytes)) return Promise.resolve(this.take(bytes));
    return new Promise((resolve) => this.waiting.push({ bytes, resolve }));
  }

  release(buffer: Buffer): void {
    this.inUse -= buffer.length;
    if (buffer.length === this.reusableSize) this.free.push(buffer);
    else this.used -= buffer.length;
    this.serveWaiting();
    if (this.free.length > 0) this.scheduleIdleRelease();
  }

  private serveWaiting() {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (!(next.bytes === this.reusableSize && this.free.length > 0)) {
        this.shrinkFor(next.bytes);
        if (this.used + next.bytes > this.limit) return;
      }
      this.waiting.shift();
      next.resolve(this.take(next.bytes));
    }
  }

  /** Lets kept buffers go until `bytes` more would fit (or none are kept). */
  private shrinkFor(bytes: number) {
    while (this.used + bytes > this.limit && this.free.length > 0) {
      this.free.pop();
      this.used -= this.reusableSize;
    }
  }

  private scheduleIdleRelease() {
    if (this.idleTimer) this.idleTimer.refresh();
    else {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        this.used -= this.free.length * this.reusableSize;
        this.free.length = 0;
      }, this.keepIdleMs);
      this.idleTimer.unref();
    }
  }
}
