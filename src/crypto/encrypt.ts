import { E2eeError } from './errors.js';
import { HEADER_SIZE, SEALED_CHUNK_SIZE, chunkOffsets, ciphertextSize, createHeader, newSalt, payloadKey, sealChunk } from './container.js';

/** Bytes [start, end) of a plaintext, e.g. `blob.slice(start, end)` in the browser. */
export type ByteReader = (start: number, end: number) => Promise<Uint8Array>;

export interface PlainSource {
  size: number;
  read: ByteReader;
}

/** A File or Blob as a plaintext source: reading a slice never loads the rest. */
export function blobSource(blob: Blob): PlainSource {
  return { size: blob.size, read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()) };
}

export interface EncryptedSource {
  /** The container's exact size, C(L): what tus is told the file's size is. */
  readonly size: number;
  readonly plainSize: number;
  /** The file's header salt: kept in its sealed metadata, and needed again to resume with the same bytes. */
  readonly salt: Uint8Array<ArrayBuffer>;
  readonly header: Uint8Array<ArrayBuffer>;
  /** Ciphertext bytes [start, end), from any offset: the same salt and key always give the same bytes. */
  read(start: number, end: number): Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * Encrypts on demand as the uploader reads: only the chunks under the asked range are read and sealed, so a resume
 * at any offset re-encrypts from that chunk's start and nothing is buffered beyond one read.
 */
export async function createEncryptedSource(contentKey: CryptoKey, plain: PlainSource, options: { salt?: Uint8Array } = {}): Promise<EncryptedSource> {
  const salt = new Uint8Array(options.salt ?? newSalt());
  const header = createHeader(salt);
  const key = await payloadKey(contentKey, salt);
  const size = ciphertextSize(plain.size);
  // An uploader's reads seldom end on a chunk edge, so the next read usually starts in the chunk the last one ended in.
  let cached: { index: number; sealed: Uint8Array<ArrayBuffer> } | undefined;

  async function sealedChunk(index: number): Promise<Uint8Array<ArrayBuffer>> {
    if (cached?.index === index) return cached.sealed;
    const span = chunkOffsets(plain.size, index);
    const bytes = await plain.read(span.plainStart, span.plainEnd);
    if (bytes.length !== span.plainEnd - span.plainStart) {
      const asked = `[${span.plainStart}, ${span.plainEnd})`;
      throw new E2eeError('bad_length', `Asked for plaintext bytes ${asked} and got ${bytes.length}: the file changed while it was read`);
    }
    const sealed = await sealChunk(key, header, index, bytes, span.final);
    cached = { index, sealed };
    return sealed;
  }

  async function read(start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end || end > size) {
      throw new RangeError(`Cannot read [${start}, ${end}) of a ${size}-byte container`);
    }
    const out = new Uint8Array(end - start);
    let at = start;
    if (at < HEADER_SIZE) {
      const part = header.subarray(at, Math.min(end, HEADER_SIZE));
      out.set(part);
      at += part.length;
    }
    while (at < end) {
      const index = Math.floor((at - HEADER_SIZE) / SEALED_CHUNK_SIZE);
      const sealed = await sealedChunk(index);
      const from = at - (HEADER_SIZE + index * SEALED_CHUNK_SIZE);
      const part = sealed.subarray(from, Math.min(sealed.length, from + end - at));
      out.set(part, at - start);
      at += part.length;
    }
    return out;
  }

  return { size, plainSize: plain.size, salt, header, read };
}
