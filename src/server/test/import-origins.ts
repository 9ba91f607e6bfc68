import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Real HTTP origins on 127.0.0.1 (ephemeral ports) for the tests of URL imports: a file server with
 * ranges, validators and an optional pace, redirect chains, and origins that misbehave (lie about
 * their length, stall, ignore ranges, change the file between requests). They listen on loopback
 * only, and nothing here ever connects anywhere: a redirect to a refused address only names it.
 */

export interface OriginRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestOrigin {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: OriginRequest[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

export type OriginHandler = (req: http.IncomingMessage, res: http.ServerResponse, origin: TestOrigin) => void;

/** Starts an origin on 127.0.0.1; close it (or the TestOrigins it came from) in afterAll. */
export async function startOrigin(handler: OriginHandler): Promise<TestOrigin> {
  const origin: TestOrigin = { url: '', port: 0, requests: [], connections: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    origin.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    // A client that gives up mid-answer is expected here (that is what many tests do).
    res.on('error', () => {});
    handler(req, res, origin);
  });
  server.on('connection', (socket) => {
    origin.connections++;
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.port = (server.address() as AddressInfo).port;
  origin.url = `http://127.0.0.1:${origin.port}`;
  origin.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return origin;
}

/** The origins of one test file: `start` as many as needed, `closeAll` in afterAll. */
export class TestOrigins {
  private readonly started: TestOrigin[] = [];

  async start(handler: OriginHandler): Promise<TestOrigin> {
    const origin = await startOrigin(handler);
    this.started.push(origin);
    return origin;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((o) => o.close()));
  }
}

// ---------------------------------------------------------------------------------------------
// Handlers

export interface FileOptions {
  /** Sent as ETag; null for none. Default `"v1"`. */
  etag?: string | null;
  /** Sent as Last-Modified; null for none. Default a fixed date. */
  lastModified?: string | null;
  /** Byte ranges (Accept-Ranges, 206, If-Range). Default true; false ignores Range and sends no Accept-Ranges. */
  ranges?: boolean;
  /** When false, Range is honoured even if If-Range does not match (a broken origin). Default true. */
  honourIfRange?: boolean;
  contentType?: string;
  contentDisposition?: string;
  /** No Content-Length: the body is sent chunked. */
  chunked?: boolean;
  /** The first whole-file answer drops the connection after this many bytes (a network failure mid-import); later ones are whole. */
  dropFirstAfter?: number;
  /** Bodies are sent at about this rate, so that a large import lasts long enough to be interrupted. Default: as fast as the client reads. */
  bytesPerSecond?: number;
  /** Every body stops for `ms` after its first `after` bytes, then goes on (a slow origin, not a dead one). */
  pause?: { after: number; ms: number };
}

export const TEST_LAST_MODIFIED = 'Wed, 21 Oct 2026 07:28:00 GMT';

/**
 * Serves `bytes` for any path: Content-Length, ETag, Last-Modified, Accept-Ranges; `Range: bytes=a-`,
 * `bytes=a-b` and `bytes=-n` answered 206 (416 past the end), unless If-Range names another version.
 */
export function serveFile(bytes: Buffer, options: FileOptions = {}): OriginHandler {
  let dropAfter = options.dropFirstAfter;
  return (req, res) => {
    const etag = options.etag === undefined ? '"v1"' : options.etag;
    const lastModified = options.lastModified === undefined ? TEST_LAST_MODIFIED : options.lastModified;
    const ranges = options.ranges ?? true;
    const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/octet-stream' };
    if (etag !== null) headers.etag = etag;
    if (lastModified !== null) headers['last-modified'] = lastModified;
    if (options.contentDisposition) headers['content-disposition'] = options.contentDisposition;
    if (ranges) headers['accept-ranges'] = 'bytes';

    const rangeHeader = req.headers.range;
    const ifRange = req.headers['if-range'];
    const sameVersion = ifRange === undefined || !(options.honourIfRange ?? true) || ifRange === etag || ifRange === lastModified;
    const range = ranges && rangeHeader !== undefined && sameVersion ? parseRange(rangeHeader, bytes.length) : null;
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${bytes.length}` }).end();
      return;
    }
    if (range) {
      const part = bytes.subarray(range.start, range.end + 1);
      res.writeHead(206, { ...headers, 'content-length': String(part.length), 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` });
      void sendBody(res, part, options);
      return;
    }
    if (!options.chunked) headers['content-length'] = String(bytes.length);
    res.writeHead(200, headers);
    if (dropAfter !== undefined) {
      const upTo = dropAfter;
      dropAfter = undefined;
      res.write(bytes.subarray(0, upTo), () => res.destroy());
      return;
    }
    void sendBody(res, bytes, options);
  };
}

const BODY_CHUNK = 256 * 1024;

/** Writes `body` at the pace `options` ask for (at once without one); stops when the client goes away. */
async function sendBody(res: http.ServerResponse, body: Buffer, options: Pick<FileOptions, 'bytesPerSecond' | 'pause'>): Promise<void> {
  const { bytesPerSecond, pause } = options;
  if (!bytesPerSecond && !pause) {
    res.end(body);
    return;
  }
  let gone = false;
  res.once('close', () => (gone = true));
  const started = Date.now();
  let pausedMs = 0;
  let paused = false;
  let sent = 0;
  while (sent < body.length && !gone) {
    if (pause && !paused && sent === pause.after) {
      await sleep(pause.ms);
      paused = true;
      pausedMs = pause.ms;
      continue;
    }
    // A pause falls exactly between two writes.
    const end = Math.min(body.length, sent + BODY_CHUNK, pause && !paused ? pause.after : Infinity);
    const flushed = res.write(body.subarray(sent, end));
    sent = end;
    if (!flushed) await drainedOrClosed(res);
    if (bytesPerSecond) await sleep(started + pausedMs + (sent / bytesPerSecond) * 1000 - Date.now());
  }
  if (!gone) res.end();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Math.min(Number(m[2]), size);
    return n === 0 ? 'unsatisfiable' : { start: size - n, end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** A file that changes after its first request: each request gets the next version (the last one stays). */
export function changingFile(versions: Array<{ bytes: Buffer; etag: string }>, options: Omit<FileOptions, 'etag'> = {}): OriginHandler {
  let served = 0;
  return (req, res, origin) => {
    const version = versions[Math.min(served++, versions.length - 1)]!;
    serveFile(version.bytes, { lastModified: null, ...options, etag: version.etag })(req, res, origin);
  };
}

/**
 * A chain of redirects on one origin: `/hop/<n>/...` answers a relative redirect to `/hop/<n-1>/...`,
 * and `/hop/1/...` redirects to `target` (absolute, or a path on this origin). Start at `hopsUrl(origin, n)`.
 */
export function redirectChain(target: string, status = 302): OriginHandler {
  return (req, res) => {
    const m = /^\/hop\/(\d+)(\/.*)?$/.exec(req.url ?? '');
    const n = m ? Number(m[1]) : 0;
    const location = n > 1 ? `/hop/${n - 1}${m?.[2] ?? ''}` : target;
    res.writeHead(status, { location }).end();
  };
}

export function hopsUrl(origin: TestOrigin, hops: number, rest = '/file.bin'): string {
  return `${origin.url}/hop/${hops}${rest}`;
}

/** Always redirects to `location` (e.g. a refused address: it is only named, never reached). */
export function redirectTo(location: string, status = 302): OriginHandler {
  return (_req, res) => {
    res.writeHead(status, { location }).end();
  };
}

/** Answers `status` with a short body. */
export function answerStatus(status: number, body = ''): OriginHandler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };
}

/**
 * Announces `announcedLength` in Content-Length but sends `bytes` (written raw on the socket, as
 * node:http would refuse to), then closes: longer announced → the body is cut short; shorter → the
 * extra bytes follow the message the client has already read to its end.
 */
export function lyingLength(bytes: Buffer, announcedLength: number): OriginHandler {
  return (_req, res) => {
    const socket = res.socket!;
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${announcedLength}\r\nConnection: close\r\n\r\n`);
    socket.end(bytes);
  };
}

/** Announces `bytes.length`, sends the first `sendBytes` of them, then sends nothing more (the connection stays open). */
export function stallAfter(bytes: Buffer, sendBytes: number): OriginHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
    res.write(bytes.subarray(0, sendBytes));
  };
}

/** Never answers (not even the status line). */
export function neverAnswer(): OriginHandler {
  return () => {};
}
