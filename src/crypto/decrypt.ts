import { equalBytes } from './bytes.js';
import { E2eeError } from './errors.js';
import { HEADER_SIZE, chunkCount, chunkOffsets, openChunk, parseHeader, payloadKey } from './container.js';

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
