import { concatBytes } from './bytes.js';
import { createDecryptStream, type ExpectedFile } from './decrypt.js';

/** Random bytes of any length (getRandomValues fills at most 64 KiB a call). */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(length, at + 65_536)));
  return out;
}

/** Odd piece sizes, so no piece lines up with a header or chunk edge the way a network would not either. */
const oddPieces = [1, 7, 4093, 65_537, 1_000_003, 23, 2_100_001];

export function streamOf(bytes: Uint8Array, sizes: readonly number[] = oddPieces): ReadableStream<Uint8Array> {
  let at = 0;
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = sizes[i++ % sizes.length]!;
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

/** Everything the stream let through before it ended or failed, and how it failed. */
export async function decryptAll(contentKey: CryptoKey, container: Uint8Array, expected: ExpectedFile): Promise<{ emitted: Uint8Array; error: unknown }> {
  const reader = streamOf(container).pipeThrough(createDecryptStream(contentKey, expected)).getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch (error) {
    return { emitted: concatBytes(...parts), error };
  }
  return { emitted: concatBytes(...parts), error: undefined };
}

/** Where two byte strings first differ (-1 when equal): vitest's toEqual walks a MiB of bytes one by one, slowly. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
