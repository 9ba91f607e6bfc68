import { makeZip, predictLength } from 'client-zip';
import { createDecryptStream } from '../../../../crypto';
import { errorFromResponse } from '../../../lib/api-error';
import type { OpenedFile } from './open-transfer';

/**
 * The bytes of an end-to-end encrypted transfer's files: the ciphertext from a download session's signed URL
 * (a plain GET, no credentials, no referrer; the key never goes with it), decrypted as it streams. Only whole,
 * verified chunks come out, and the final one only once nothing follows it, so a stream that ends normally
 * is the sender's file, complete.
 */

/** The server answered a file's download without a body: the page says so in the reader's words (the message is for logs). */
export class NoFileSent extends Error {
  override readonly name = 'NoFileSent';
}

/** Counts the bytes that pass, for the page's progress. */
function counting(onBytes: (n: number) => void): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, controller) {
      onBytes(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
}

/**
 * Fetches one file's container and decrypts it with its content key (a transfer's link keys' `content`, or a vault
 * file's own key); the request starts only when the stream is first read.
 */
export function decryptedFile(
  contentKey: CryptoKey,
  file: Pick<OpenedFile, 'salt' | 'size'>,
  url: string,
  onBytes: (n: number) => void = () => {},
): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  return openedWhenRead(async () => {
    const response = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', signal: controller.signal });
    if (!response.ok) throw await errorFromResponse(response);
    if (!response.body) throw new NoFileSent('The server sent no file.');
    return response.body.pipeThrough(createDecryptStream(contentKey, { salt: file.salt, size: file.size })).pipeThrough(counting(onBytes)).getReader();
  }, (reason) => controller.abort(reason));
}

/**
 * A stream whose source is opened only when it is first read (a zip reaches its entry, a save starts), then passed
 * through one chunk per pull: nothing is requested or decrypted ahead of the consumer.
 */
export function openedWhenRead(open: () => Promise<ReadableStreamDefaultReader<Uint8Array>>, onCancel?: (reason: unknown) => void): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        reader ??= await open();
        const { done, value } = await reader.read();
        if (done) out.close();
        else out.enqueue(value);
      },
      async cancel(reason) {
        onCancel?.(reason);
        await reader?.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** A file's path inside the zip: its folders and name, each made unique (a second `a.txt` becomes `a (2).txt`). */
export function zipEntryNames(files: readonly Pick<OpenedFile, 'name' | 'path'>[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const full = file.path ? `${file.path}/${file.name}` : file.name;
    let candidate = full;
    const dot = full.lastIndexOf('.');
    const slash = full.lastIndexOf('/');
    const [stem, ext] = dot > slash + 1 ? [full.slice(0, dot), full.slice(dot)] : [full, ''];
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** The zip's exact size, known before a byte is fetched (ZIP64 records included where a file needs them). */
export function zipSize(files: readonly Pick<OpenedFile, 'name' | 'path' | 'size'>[]): number {
  const names = zipEntryNames(files);
  return Number(predictLength(files.map((file, i) => ({ name: names[i]!, size: file.size }))));
}

/** One file of a zip: where it goes, its exact size, and its bytes (opened only when the zip reaches it). */
export interface ZipEntry {
  name: string;
  path: string | null;
  size: number;
  open(): ReadableStream<Uint8Array>;
}

/**
 * Every file as one zip, streamed: a file's request starts only once the previous file is in the zip, and
 * nothing is kept. A file that fails to decrypt fails the whole zip.
 */
export function decryptedZip(files: readonly ZipEntry[]): ReadableStream<Uint8Array> {
  const names = zipEntryNames(files);
  const lastModified = new Date();
  async function* entries() {
    for (const [i, file] of files.entries()) yield { name: names[i]!, size: file.size, lastModified, input: file.open() };
  }
  return makeZip(entries());
}
