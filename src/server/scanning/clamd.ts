import net from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A client for ClamAV's daemon over TCP: INSTREAM streams a file in length-prefixed chunks (never
 * more than one chunk held here), VERSION tells whether clamd answers. Commands use the `z` form,
 * whose replies end with a NUL byte. clamd is the operator's own service (CLAMD_URL), not an address
 * a user chose, so it is reached directly rather than through the SSRF-checked outbound client.
 */

export interface ClamdAddress {
  host: string;
  port: number;
}

export type ScanVerdict = { infected: false } | { infected: true; signature: string };

export type ClamdFailure = 'unreachable' | 'timeout' | 'size_limit' | 'scanner_error' | 'source_error';

export class ClamdError extends Error {
  constructor(
    message: string,
    readonly reason: ClamdFailure,
  ) {
    super(message);
  }
}

/** `tcp://host:port` (validated by the config) as an address. */
export function parseClamdUrl(url: string): ClamdAddress {
  const { hostname, port } = new URL(url);
  return { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) };
}

/** One command on its own connection; resolves with the reply (without its NUL) once clamd ends it. */
function converse(address: ClamdAddress, timeoutMs: number, talk: (socket: net.Socket, settled: () => boolean) => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address.host, port: address.port });
    const reply: Buffer[] = [];
    let done = false;
    let connected = false;
    const finish = (err: Error | null, text?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (err) reject(err);
      else resolve(text!);
    };
    // No byte either way for this long (connecting, sending, or waiting for the verdict): give up.
    socket.setTimeout(timeoutMs, () => finish(new ClamdError(`clamd did not answer within ${Math.round(timeoutMs / 1000)} s`, 'timeout')));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(new ClamdError(`${connected ? 'lost' : 'could not reach'} clamd at ${address.host}:${address.port}: ${err.code ?? err.message}`, connected ? 'scanner_error' : 'unreachable')),
    );
    socket.on('data', (chunk: Buffer) => {
      reply.push(chunk);
      const all = Buffer.concat(reply);
      const end = all.indexOf(0);
      if (end >= 0) finish(null, all.subarray(0, end).toString('utf8').trim());
    });
    // clamd may close after its reply without the NUL (some errors): what it said is the reply.
    socket.on('end', () => {
      const text = Buffer.concat(reply).toString('utf8').replace(/\0/g, '').trim();
      if (text) finish(null, text);
      else finish(new ClamdError('clamd closed the connection without an answer', 'scanner_error'));
    });
    socket.once('connect', () => {
      connected = true;
      talk(socket, () => done).catch((err: unknown) =>
        finish(err instanceof ClamdError ? err : new ClamdError(`could not read the file to scan: ${(err as Error).message}`, 'source_error')),
      );
    });
  });
}

/** Writes and waits for the socket to take more when its buffer is full (the file never piles up in memory). */
async function write(socket: net.Socket, bytes: Buffer, settled: () => boolean): Promise<void> {
  if (socket.write(bytes) || settled()) return;
  await new Promise<void>((resolve) => {
    const go = () => {
      socket.off('drain', go);
      socket.off('close', go);
      resolve();
    };
    socket.on('drain', go);
    socket.on('close', go);
  });
}

/**
 * Streams `source` to clamd and returns its verdict. clamd refuses a stream longer than its
 * StreamMaxLength (`size_limit`): the operator raises it; the file stays unavailable meanwhile.
 */
export async function scanStream(address: ClamdAddress, source: Readable, timeoutMs: number): Promise<ScanVerdict> {
  let reply: string;
  try {
    reply = await converse(address, timeoutMs, async (socket, settled) => {
      await write(socket, Buffer.from('zINSTREAM\0'), settled);
      for await (const chunk of source as AsyncIterable<Buffer>) {
        // clamd answered early (a size limit, an error): stop sending.
        if (settled()) return;
        if (chunk.length === 0) continue;
        const length = Buffer.alloc(4);
        length.writeUInt32BE(chunk.length);
        await write(socket, length, settled);
        await write(socket, chunk, settled);
      }
      if (!settled()) await write(socket, Buffer.alloc(4), settled);
    });
  } finally {
    source.destroy();
  }
  return verdictOf(reply);
}

/** `stream: OK`, `stream: <signature> FOUND`, or an error line. */
export function verdictOf(reply: string): ScanVerdict {
  if (/^stream: OK$/.test(reply)) return { infected: false };
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found) return { infected: true, signature: found[1]! };
  if (/size limit exceeded/i.test(reply)) {
    throw new ClamdError('the file is longer than clamd accepts (raise StreamMaxLength in clamd.conf)', 'size_limit');
  }
  throw new ClamdError(`clamd answered: ${reply.slice(0, 200)}`, 'scanner_error');
}

/** clamd's version line (e.g. `ClamAV 1.4.6/…`), or a ClamdError when it does not answer. */
export function clamdVersion(address: ClamdAddress, timeoutMs: number): Promise<string> {
  return converse(address, timeoutMs, async (socket, settled) => write(socket, Buffer.from('zVERSION\0'), settled));
}
