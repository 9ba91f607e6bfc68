import { equalBytes } from './bytes.js';
import { E2eeError } from './errors.js';
import { CHUNK_SIZE, HEADER_SIZE, chunkCount, chunkOffsets, createHeader, openChunk, parseHeader, payloadKey } from './container.js';
import type { PlainSource } from './encrypt.js';

/** What the file's sealed metadata (and the manifest) say it is: the stream accepts that file and no other. */
export interface ExpectedFile {
  salt: Uint8Array;
  /** Plaintext size in bytes. */
  size: number;
}

/**
 * Ciphertext in, verified plaintext out. Holds at most one chunk: each is opened, in order, once all its bytes are in,
 * and only then passed on. Knowing the size, it knows where every chunk ends and which one is final, so a cut or
 * extended container is named as such. The final chunk's plaintext is held back until the input ends with nothing
 * after it, so a consumer never sees the whole file unless the whole file, and only it, arrived.
 */
export function createDecryptStream(contentKey: CryptoKey, expected: ExpectedFile): TransformStream<Uint8Array, Uint8Array> {
  const count = chunkCount(expected.size);
  const header = new Uint8Array(HEADER_SIZE);
  let headerFilled = 0;
  let key: CryptoKey | undefined;
  let span = chunkOffsets(expected.size, 0);
  let sealed = new Uint8Array(span.cipherEnd - span.cipherStart);
  let filled = 0;
  let last: Uint8Array | undefined;

  async function acceptHeader(): Promise<CryptoKey> {
    const { salt } = parseHeader(header);
    if (!equalBytes(salt, expected.salt)) {
      throw new E2eeError('tampered', "This file's header belongs to another file: its salt is not the one in the file's sealed metadata");
    }
    return payloadKey(contentKey, salt);
  }

  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(piece, controller) {
      let at = 0;
      while (at < piece.length) {
        if (!key) {
          const n = Math.min(HEADER_SIZE - headerFilled, piece.length - at);
          header.set(piece.subarray(at, at + n), headerFilled);
          headerFilled += n;
          at += n;
          if (headerFilled === HEADER_SIZE) key = await acceptHeader();
          continue;
        }
        if (last) throw new E2eeError('trailing_data', `Data follows the final chunk (at least ${piece.length - at} more bytes)`);
        const n = Math.min(sealed.length - filled, piece.length - at);
        sealed.set(piece.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled < sealed.length) continue;
        const plain = await openChunk(key, header, span.index, sealed, span.final);
        if (span.final) {
          last = plain;
          continue;
        }
        controller.enqueue(plain);
        span = chunkOffsets(expected.size, span.index + 1);
        filled = 0;
        if (sealed.length !== span.cipherEnd - span.cipherStart) sealed = new Uint8Array(span.cipherEnd - span.cipherStart);
      }
    },
    flush(controller) {
      if (!key) throw new E2eeError('truncated', headerFilled ? `The data ended inside the header, after ${headerFilled} bytes` : 'The data is empty');
      if (!last) throw new E2eeError('truncated', `The data ended ${filled ? 'inside' : 'before'} chunk ${span.index + 1} of ${count}`);
      controller.enqueue(last);
    },
  });
}

/** Ciphertext bytes [start, end) of a container, from wherever it is kept (a Range request of its download link). */
export type CipherReader = (start: number, end: number) => Promise<Uint8Array>;

/**
 * Random access to a container's plaintext without reading the rest: [start, end) is read by fetching only the sealed
 * chunks under it and opening each (bound to its index, its finality and the header the salt makes), so a server that
 * serves other bytes, another chunk or another file's is refused. What it gives is a PlainSource, so a file can be
 * re-encrypted under another key as an uploader asks for it (a vault file sent as a transfer), one chunk at a time.
 */
export async function createDecryptingSource(contentKey: CryptoKey, expected: ExpectedFile, readCipher: CipherReader): Promise<PlainSource> {
  const header = createHeader(expected.salt);
  const key = await payloadKey(contentKey, expected.salt);
  const count = chunkCount(expected.size);
  // An encrypting reader asks for one chunk at a time, and a retried request for the same one again.
  let cached: { index: number; plain: Uint8Array<ArrayBuffer> } | undefined;

  async function openChunks(first: number, last: number): Promise<Uint8Array<ArrayBuffer>[]> {
    const from = chunkOffsets(expected.size, first);
    const to = chunkOffsets(expected.size, last);
    const sealed = await readCipher(from.cipherStart, to.cipherEnd);
    if (sealed.length !== to.cipherEnd - from.cipherStart) {
      throw new E2eeError('truncated', `Asked for ciphertext bytes [${from.cipherStart}, ${to.cipherEnd}) and got ${sealed.length}`);
    }
    const opened: Uint8Array<ArrayBuffer>[] = [];
    for (let index = first; index <= last; index++) {
      const span = chunkOffsets(expected.size, index);
      const bytes = sealed.subarray(span.cipherStart - from.cipherStart, span.cipherEnd - from.cipherStart);
      const plain = await openChunk(key, header, index, bytes, span.final);
      if (plain.length !== span.plainEnd - span.plainStart) throw new E2eeError('bad_length', `Chunk ${index} opened to ${plain.length} bytes`);
      opened.push(plain);
    }
    return opened;
  }

  async function read(start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end || end > expected.size) {
      throw new RangeError(`Cannot read [${start}, ${end}) of a ${expected.size}-byte file`);
    }
    const out = new Uint8Array(end - start);
    if (start === end) return out;
    const first = Math.floor(start / CHUNK_SIZE);
    const last = Math.min(count - 1, Math.floor((end - 1) / CHUNK_SIZE));
    let chunks: Uint8Array<ArrayBuffer>[];
    if (cached && first === cached.index && last === cached.index) chunks = [cached.plain];
    else {
      chunks = await openChunks(first, last);
      cached = { index: last, plain: chunks[chunks.length - 1]! };
    }
    chunks.forEach((plain, i) => {
      const chunkStart = (first + i) * CHUNK_SIZE;
      const from = Math.max(start, chunkStart);
      const to = Math.min(end, chunkStart + plain.length);
      out.set(plain.subarray(from - chunkStart, to - chunkStart), from - start);
    });
    return out;
  }

  return { size: expected.size, read };
}
