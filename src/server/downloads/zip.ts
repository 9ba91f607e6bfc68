/**
 * A whole transfer as one streamed zip whose every byte is known in advance.
 *
 * Entries are STOREd (no compression) with the CRC-32 already recorded for each file, so the
 * archive's layout — and therefore its exact length — is computed before the first byte is sent.
 * That lets the HTTP response carry `Content-Length` and serve `Range` requests like a plain file:
 * `zipRange` produces any byte range, opening only the files that overlap it, each at the right
 * offset. File data is streamed from storage as-is; only the headers (a few dozen bytes per entry)
 * are held in memory.
 *
 * Format (PKWARE APPNOTE 6.3.x): per entry a local file header + name + extra + data, with no data
 * descriptor (general purpose bit 3 clear, sizes and CRC are in the header); bit 11 set (names are
 * UTF-8). Entries of 4 GiB or more, or whose local header starts at or past 4 GiB, use ZIP64
 * extended information (0x0001); the archive gets a ZIP64 end of central directory record and
 * locator when the entry count or the central directory's offset or size do not fit the classic
 * end record. Each entry also carries an extended timestamp (0x5455) with its modification time
 * in UTC; the DOS date/time fields are written in UTC too, so the bytes never depend on the
 * server's time zone.
 */
import { Readable } from 'node:stream';

export { zipEntryNames } from './zip-names.js';

export interface ZipSource {
  /** Path inside the zip, '/'-separated, already sanitised (see zipEntryNames). */
  name: string;
  /** Bytes; may exceed 4 GiB (must be a safe integer). */
  size: number;
  /** Unsigned 32-bit IEEE CRC of the file bytes. */
  crc32: number;
  /** Goes into the DOS date/time fields (UTC) and the extended timestamp extra field. */
  modifiedAt: Date;
  /** Opens the file's bytes from `start` to `end` inclusive (like fs.createReadStream options). */
  open(start: number, end: number): NodeJS.ReadableStream | Readable;
}

export type ZipPart =
  | { readonly kind: 'bytes'; readonly offset: number; readonly length: number; readonly buf: Buffer }
  | { readonly kind: 'file'; readonly offset: number; readonly length: number; readonly source: ZipSource };

export interface ZipLayoutEntry {
  readonly name: string;
  /** Offset of the entry's local file header. */
  readonly headerOffset: number;
  /** Offset of the entry's first data byte. */
  readonly dataOffset: number;
  readonly size: number;
  readonly zip64: boolean;
}

export interface ZipLayout {
  /** Exact length of the archive in bytes. */
  readonly size: number;
  /** Whether the archive has ZIP64 end records. */
  readonly zip64: boolean;
  readonly entries: readonly ZipLayoutEntry[];
  /** The archive as consecutive, non-empty parts, in order: headers (bytes) and file data. */
  readonly parts: readonly ZipPart[];
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_EOCD = 0x06054b50;

const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const ZIP64_EOCD_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const EOCD_SIZE = 22;

const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

const FLAG_UTF8 = 1 << 11;
const METHOD_STORE = 0;
const VERSION_DEFAULT = 20; // 2.0: folders (and the format we use) without ZIP64
const VERSION_ZIP64 = 45; // 4.5: ZIP64 format extensions
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64; // 3 = UNIX, so the external attributes hold a mode
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0; // regular file, rw-r--r--

const EXTRA_ZIP64 = 0x0001;
const EXTRA_TIMESTAMP = 0x5455;
const TIMESTAMP_EXTRA_SIZE = 4 + 5; // header + flags byte + mtime

/** DOS date and time (2-second resolution), in UTC, clamped to what the format can express. */
function dosDateTime(date: Date): { time: number; date: number } {
  const ms = date.getTime();
  if (!Number.isFinite(ms) || date.getUTCFullYear() < 1980) return { time: 0, date: (1 << 5) | 1 }; // 1980-01-01 00:00:00
  if (date.getUTCFullYear() > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** Unix seconds for the extended timestamp field, or null when it does not fit a signed 32-bit value. */
function unixSeconds(date: Date): number | null {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return null;
  const s = Math.floor(ms / 1000);
  return s >= -0x80000000 && s <= 0x7fffffff ? s : null;
}

function writeTimestampExtra(buf: Buffer, at: number, seconds: number): number {
  buf.writeUInt16LE(EXTRA_TIMESTAMP, at);
  buf.writeUInt16LE(5, at + 2);
  buf.writeUInt8(1, at + 4); // bit 0: modification time present
  buf.writeInt32LE(seconds, at + 5);
  return at + TIMESTAMP_EXTRA_SIZE;
}

function checkSource(s: ZipSource, index: number): void {
  if (typeof s.name !== 'string' || s.name.length === 0) throw new TypeError(`zip entry ${index}: empty name`);
  if (!Number.isSafeInteger(s.size) || s.size < 0) throw new RangeError(`zip entry ${index}: invalid size ${s.size}`);
  if (!Number.isInteger(s.crc32) || s.crc32 < 0 || s.crc32 > MAX32) {
    throw new RangeError(`zip entry ${index}: invalid CRC-32 ${s.crc32}`);
  }
  if (!(s.modifiedAt instanceof Date)) throw new TypeError(`zip entry ${index}: modifiedAt is not a Date`);
}

export function zipLayout(sources: readonly ZipSource[]): ZipLayout {
  const parts: ZipPart[] = [];
  const entries: ZipLayoutEntry[] = [];
  const centrals: Buffer[] = [];
  let pending: Buffer[] = []; // header bytes not yet turned into a part (consecutive headers are merged)
  let pendingOffset = 0;
  let offset = 0;

  const flush = () => {
    if (pending.length === 0) return;
    const buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    parts.push({ kind: 'bytes', offset: pendingOffset, length: buf.length, buf });
    pending = [];
  };
  const addBytes = (buf: Buffer) => {
    if (pending.length === 0) pendingOffset = offset;
    pending.push(buf);
    offset += buf.length;
  };

  sources.forEach((source, index) => {
    checkSource(source, index);
    const name = Buffer.from(source.name, 'utf8');
    if (name.length > MAX16) throw new RangeError(`zip entry ${index}: name longer than 65535 bytes`);
    const { size, crc32 } = source;
    const headerOffset = offset;
    const bigSize = size >= MAX32;
    const bigOffset = headerOffset >= MAX32;
    const zip64 = bigSize || bigOffset;
    const version = zip64 ? VERSION_ZIP64 : VERSION_DEFAULT;
    const { time, date } = dosDateTime(source.modifiedAt);
    const seconds = unixSeconds(source.modifiedAt);
    const timestampLength = seconds === null ? 0 : TIMESTAMP_EXTRA_SIZE;

    // Local header. APPNOTE 4.5.3: when either size is 0xFFFFFFFF here, the ZIP64 extra field
    // MUST hold both the original and the compressed size (and nothing else: no offset field here).
    const localExtraLength = (bigSize ? 4 + 16 : 0) + timestampLength;
    const local = Buffer.alloc(LOCAL_HEADER_SIZE + name.length + localExtraLength);
    local.writeUInt32LE(SIG_LOCAL, 0);
    local.writeUInt16LE(version, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(METHOD_STORE, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc32, 14);
    local.writeUInt32LE(bigSize ? MAX32 : size, 18); // compressed size
    local.writeUInt32LE(bigSize ? MAX32 : size, 22); // uncompressed size
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtraLength, 28);
    name.copy(local, LOCAL_HEADER_SIZE);
    let at = LOCAL_HEADER_SIZE + name.length;
    if (bigSize) {
      local.writeUInt16LE(EXTRA_ZIP64, at);
      local.writeUInt16LE(16, at + 2);
      local.writeBigUInt64LE(BigInt(size), at + 4); // original size
      local.writeBigUInt64LE(BigInt(size), at + 12); // compressed size
      at += 20;
    }
    if (seconds !== null) writeTimestampExtra(local, at, seconds);
    addBytes(local);

    const dataOffset = offset;
    if (size > 0) {
      flush();
      parts.push({ kind: 'file', offset, length: size, source });
      offset += size;
    }
    entries.push({ name: source.name, headerOffset, dataOffset, size, zip64 });

    // Central directory header. APPNOTE 4.5.3: the ZIP64 extra holds only the fields whose
    // 32-bit slot is 0xFFFFFFFF, in the fixed order: original size, compressed size, header offset.
    const zip64DataLength = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
    const centralExtraLength = (zip64DataLength > 0 ? 4 + zip64DataLength : 0) + timestampLength;
    const central = Buffer.alloc(CENTRAL_HEADER_SIZE + name.length + centralExtraLength);
    central.writeUInt32LE(SIG_CENTRAL, 0);
    central.writeUInt16LE(VERSION_MADE_BY, 4);
    central.writeUInt16LE(version, 6);
    central.writeUInt16LE(FLAG_UTF8, 8);
    central.writeUInt16LE(METHOD_STORE, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc32, 16);
    central.writeUInt32LE(bigSize ? MAX32 : size, 20); // compressed size
    central.writeUInt32LE(bigSize ? MAX32 : size, 24); // uncompressed size
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(centralExtraLength, 30);
    central.writeUInt16LE(0, 32); // comment length
    central.writeUInt16LE(0, 34); // disk number start
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(EXTERNAL_ATTRS, 38);
    central.writeUInt32LE(bigOffset ? MAX32 : headerOffset, 42);
    name.copy(central, CENTRAL_HEADER_SIZE);
    at = CENTRAL_HEADER_SIZE + name.length;
    if (zip64DataLength > 0) {
      central.writeUInt16LE(EXTRA_ZIP64, at);
      central.writeUInt16LE(zip64DataLength, at + 2);
      at += 4;
      if (bigSize) {
        central.writeBigUInt64LE(BigInt(size), at); // original size
        central.writeBigUInt64LE(BigInt(size), at + 8); // compressed size
        at += 16;
      }
      if (bigOffset) {
        central.writeBigUInt64LE(BigInt(headerOffset), at);
        at += 8;
      }
    }
    if (seconds !== null) writeTimestampExtra(central, at, seconds);
    centrals.push(central);
  });

  const count = sources.length;
  const cdOffset = offset;
  let cdSize = 0;
  for (const c of centrals) cdSize += c.length;
  const zip64 = count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;

  const tail: Buffer[] = centrals;
  if (zip64) {
    const zip64EocdOffset = cdOffset + cdSize;
    const rec = Buffer.alloc(ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE);
    rec.writeUInt32LE(SIG_ZIP64_EOCD, 0);
    rec.writeBigUInt64LE(BigInt(ZIP64_EOCD_SIZE - 12), 4); // size of the record after this field
    rec.writeUInt16LE(VERSION_MADE_BY, 12);
    rec.writeUInt16LE(VERSION_ZIP64, 14);
    rec.writeUInt32LE(0, 16); // number of this disk
    rec.writeUInt32LE(0, 20); // disk where the central directory starts
    rec.writeBigUInt64LE(BigInt(count), 24); // entries on this disk
    rec.writeBigUInt64LE(BigInt(count), 32); // entries in total
    rec.writeBigUInt64LE(BigInt(cdSize), 40);
    rec.writeBigUInt64LE(BigInt(cdOffset), 48);
    // Locator
    rec.writeUInt32LE(SIG_ZIP64_LOCATOR, 56);
    rec.writeUInt32LE(0, 60); // disk with the ZIP64 end record
    rec.writeBigUInt64LE(BigInt(zip64EocdOffset), 64);
    rec.writeUInt32LE(1, 72); // total number of disks
    tail.push(rec);
  }
  const eocd = Buffer.alloc(EOCD_SIZE);
  eocd.writeUInt32LE(SIG_EOCD, 0);
  eocd.writeUInt16LE(0, 4); // number of this disk
  eocd.writeUInt16LE(0, 6); // disk where the central directory starts
  // APPNOTE 4.4.1.4: fields too small for their value hold -1 and the ZIP64 record has the real one.
  eocd.writeUInt16LE(Math.min(count, MAX16), 8);
  eocd.writeUInt16LE(Math.min(count, MAX16), 10);
  eocd.writeUInt32LE(Math.min(cdSize, MAX32), 12);
  eocd.writeUInt32LE(Math.min(cdOffset, MAX32), 16);
  eocd.writeUInt16LE(0, 20); // comment length
  tail.push(eocd);

  for (const buf of tail) addBytes(buf);
  flush();
  if (!Number.isSafeInteger(offset)) throw new RangeError('zip archive too large');
  return { size: offset, zip64, entries, parts };
}

/** Index of the part containing byte `pos` (parts are contiguous and non-empty). */
function partAt(parts: readonly ZipPart[], pos: number): number {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (parts[mid]!.offset <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const ignoreError = () => {};

class ZipRangeStream extends Readable {
  readonly #parts: readonly ZipPart[];
  readonly #end: number;
  #index: number;
  /** Absolute offset of the next byte to push. */
  #pos: number;
  #current: Readable | null = null;
  #detach: (() => void) | null = null;
  /** Whether the consumer has asked for data since the last refused push. */
  #wanted = false;

  constructor(layout: ZipLayout, start: number, end: number, highWaterMark: number) {
    super({ highWaterMark });
    this.#parts = layout.parts;
    this.#end = end;
    this.#pos = start;
    this.#index = partAt(layout.parts, start);
  }

  override _read(): void {
    this.#wanted = true;
    if (this.#current) this.#current.resume();
    else this.#advance();
  }

  #push(chunk: Buffer | null): boolean {
    const more = this.push(chunk);
    if (!more) this.#wanted = false;
    return more;
  }

  /** Pushes header bytes until the consumer is full, the range ends, or a file must be opened. */
  #advance(): void {
    while (!this.destroyed) {
      if (this.#pos > this.#end) {
        this.#push(null);
        return;
      }
      const part = this.#parts[this.#index]!;
      const from = this.#pos - part.offset;
      const to = Math.min(this.#end, part.offset + part.length - 1) - part.offset; // inclusive
      if (part.kind === 'file') {
        this.#openFile(part.source, from, to);
        return;
      }
      const chunk = from === 0 && to === part.length - 1 ? part.buf : part.buf.subarray(from, to + 1);
      this.#pos += chunk.length;
      this.#index++;
      if (!this.#push(chunk)) return;
    }
  }

  #openFile(source: ZipSource, start: number, end: number): void {
    let stream: Readable;
    try {
      const opened = source.open(start, end);
      stream = opened instanceof Readable ? opened : new Readable({ highWaterMark: this.readableHighWaterMark }).wrap(opened);
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    let remaining = end - start + 1;
    let ended = false;
    const finish = () => {
      this.#detach?.();
      this.#current = null;
      this.#index++;
      if (this.#wanted) this.#advance();
    };
    const onData = (data: Buffer | string) => {
      let chunk = typeof data === 'string' ? Buffer.from(data) : data;
      if (chunk.length >= remaining) {
        // The last bytes of this part. A source that ignores `end` gets cut off here.
        const extra = chunk.length > remaining;
        if (extra) chunk = chunk.subarray(0, remaining);
        remaining = 0;
        this.#pos += chunk.length;
        this.#push(chunk);
        if (extra) {
          stream.destroy();
          finish();
        }
        return;
      }
      remaining -= chunk.length;
      this.#pos += chunk.length;
      if (!this.#push(chunk)) stream.pause();
    };
    const onEnd = () => {
      ended = true;
      if (remaining > 0) {
        this.destroy(new Error(`zip: "${source.name}" ended ${remaining} bytes short of its recorded size`));
      } else {
        finish();
      }
    };
    const onError = (err: Error) => this.destroy(err);
    const onClose = () => {
      if (!ended) this.destroy(new Error(`zip: "${source.name}" closed before its end`));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    this.#current = stream;
    this.#detach = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      // A late error (say, on closing the file) must not crash the process.
      stream.on('error', ignoreError);
      this.#detach = null;
    };
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    const current = this.#current;
    this.#current = null;
    if (current) {
      this.#detach?.();
      current.destroy();
    }
    callback(err);
  }
}

export interface ZipRangeOptions {
  /** Buffer size of the returned stream (default 64 KiB, like a file stream). */
  highWaterMark?: number;
}

/**
 * A stream of bytes [start, end] (inclusive) of the zip described by `layout`. Only the file data
 * parts that overlap the range are opened, each at the right offset, one at a time, with
 * backpressure; destroying the stream destroys the file stream being read.
 */
export function zipRange(layout: ZipLayout, start: number, end: number, options: ZipRangeOptions = {}): Readable {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= layout.size) {
    throw new RangeError(`zip: invalid range ${start}-${end} of ${layout.size} bytes`);
  }
  return new ZipRangeStream(layout, start, end, options.highWaterMark ?? 64 * 1024);
}
