import { randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { crc32 } from '@node-rs/crc32';
import * as tus from 'tus-js-client';
import { crcHex } from '../uploads/crc.js';
import { UPLOAD_TOKEN_HEADER } from '../uploads/tokens.js';

/**
 * The client side of the chaos suites: source files written to disk as streams (never whole in
 * memory) with their CRC-32 taken on the way, uploads through tus-js-client that resume across a
 * server that keeps dying, API calls retried as a careful client retries them, and downloads
 * checked by a streaming CRC-32.
 */

const CHUNK = 1024 * 1024;

export interface SourceFile {
  path: string;
  size: number;
  /** CRC-32 of the bytes, 8 lower-case hex digits (as the API shows it). */
  crc32: string;
}

/** Writes `size` random bytes to `path` a chunk at a time, computing their CRC-32 as it goes. */
export async function writeSourceFile(path: string, size: number): Promise<SourceFile> {
  let state = 0;
  let left = size;
  const chunks = async function* () {
    while (left > 0) {
      const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(CHUNK, left)));
      state = crc32(chunk, state);
      left -= chunk.length;
      yield chunk;
    }
  };
  await new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(path);
    Readable.from(chunks()).pipe(out).on('finish', resolve).on('error', reject);
  });
  return { path, size, crc32: crcHex(state) };
}

/** CRC-32 and length of a stream of bytes, read to its end. */
export async function crcOfStream(body: AsyncIterable<Uint8Array>): Promise<{ crc32: string; length: number }> {
  let state = 0;
  let length = 0;
  for await (const chunk of body) {
    state = crc32(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), state);
    length += chunk.byteLength;
  }
  return { crc32: crcHex(state), length };
}

/** Downloads a URL to its end and returns the status, the CRC-32 and the length of the body. */
export async function downloadCrc(url: string): Promise<{ status: number; crc32: string; length: number }> {
  const res = await fetch(url);
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return { status: res.status, crc32: '', length: 0 };
  }
  return { status: res.status, ...(await crcOfStream(res.body as unknown as AsyncIterable<Uint8Array>)) };
}

/** A server that restarts takes seconds; a client keeps trying for about two minutes. */
const RETRY_DELAYS = [200, 500, ...Array<number>(120).fill(1000)];

export interface ResumableUpload {
  /** The tus endpoint (for creation) and this file's upload URL (for resuming): the URL is the file's id, known before creation. */
  endpoint: string;
  uploadUrl: string;
  token: string;
  source: SourceFile;
  /** Bytes per PATCH; Infinity sends the rest of the file in one request. */
  chunkSize: number;
  /** Bytes sent so far on this attempt (as the client counts them). */
  onProgress?: (sent: number) => void;
}

/**
 * Uploads a file with tus-js-client as a real client would: it first asks the server (HEAD) how
 * much of the upload it has, creates the upload (POST) if none exists yet, and after any failure
 * (the server gone mid-request, a 5xx, a 423) asks again and resumes from the offset it is told.
 * The source is read from disk slice by slice.
 */
export function resumableUpload(upload: ResumableUpload): Promise<{ retries: number }> {
  return new Promise((resolve, reject) => {
    let retries = 0;
    const client = new tus.Upload(fs.createReadStream(upload.source.path), {
      endpoint: upload.endpoint,
      uploadUrl: upload.uploadUrl,
      chunkSize: upload.chunkSize,
      headers: { [UPLOAD_TOKEN_HEADER]: upload.token },
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: false,
      metadata: { filename: 'source.bin', filetype: 'application/octet-stream' },
      onShouldRetry: (err, attempt, options) => {
        retries++;
        const status = err.originalResponse?.getStatus() ?? 0;
        if (process.env.CHAOS_DEBUG) console.log(`${new Date().toISOString()} tus ${upload.uploadUrl}: ${status} ${err.message.slice(0, 120)}`);
        // A connection refused or cut (status 0), a server error, a lock still held by a dead request: all pass.
        return attempt < (options.retryDelays?.length ?? 0) && (status === 0 || status >= 500 || status === 409 || status === 423);
      },
      onProgress: (sent) => upload.onProgress?.(sent),
      onSuccess: () => resolve({ retries }),
      onError: (err) => reject(err),
    });
    client.start();
  });
}

export interface ApiCall {
  method: string;
  path: string;
  token: string;
  json?: unknown;
  idempotencyKey?: string;
}

/**
 * An API call retried while the server is away: a refused or cut connection, 502/503/504, and 409
 * `idempotency_in_progress` (the claim of a request that died with the server, held for its lease)
 * are tried again after Retry-After or a second. Anything else is the answer.
 */
export async function apiCall(base: string, call: ApiCall, deadlineMs = 180_000): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    let wait = 500;
    try {
      const res = await fetch(`${base}/api/v1${call.path}`, {
        method: call.method,
        headers: {
          authorization: `Bearer ${call.token}`,
          ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
        },
        body: call.json !== undefined ? JSON.stringify(call.json) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      const body: unknown = text ? JSON.parse(text) : null;
      const reason = (body as { error?: { details?: { reason?: string } } } | null)?.error?.details?.reason;
      const retryable = res.status === 502 || res.status === 503 || res.status === 504 || (res.status === 409 && reason === 'idempotency_in_progress');
      if (!retryable) return { status: res.status, body };
      if (process.env.CHAOS_DEBUG) console.log(`${new Date().toISOString()} ${call.method} ${call.path}: ${res.status} ${reason ?? ''}`);
      wait = Math.max(wait, Number(res.headers.get('retry-after') ?? 0) * 1000);
    } catch {
      // The server is down or went down mid-request: ask again.
    }
    if (Date.now() + wait > deadline) throw new Error(`${call.method} ${call.path}: the server did not answer for ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Signs up a workspace owner through the dashboard API and creates an API key with these scopes; returns its secret. */
export async function signUpWithKey(base: string, email: string, scopes: string[]): Promise<string> {
  const signup = await fetch(`${base}/api/dashboard/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', workspaceName: 'Chaos' }),
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
  const key = await fetch(`${base}/api/dashboard/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'chaos', scopes }),
  });
  if (key.status !== 201) throw new Error(`API key: ${key.status} ${await key.text()}`);
  return ((await key.json()) as { secret: string }).secret;
}
