/**
 * openImportSource against real origins on 127.0.0.1. No test sends traffic anywhere else: the only
 * connect used is `loopbackConnect`, which refuses any address but 127.0.0.1 (and every address it
 * was asked for is checked after each test); host names resolve through a fixed table.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConnect, type ConnectFn, type ConnectTarget, type LookupFn, type SafeRequestDeps } from '../net/safe-request.js';
import {
  ImportSourceError,
  MAX_IMPORT_REDIRECTS,
  nameFromContentDisposition,
  openImportSource,
  type ImportSource,
  type ImportSourceFailure,
  type ImportSourceOptions,
} from './fetch-source.js';
import { nameFromUrlPath, sanitizeFileName } from '../files/names.js';
import {
  TEST_LAST_MODIFIED,
  TestOrigins,
  answerStatus,
  changingFile,
  hopsUrl,
  lyingLength,
  neverAnswer,
  redirectChain,
  redirectTo,
  serveFile,
  stallAfter,
  type TestOrigin,
} from '../test/import-origins.js';

const origins = new TestOrigins();
afterAll(() => origins.closeAll());

/** Every address any test asked to connect to. */
const connectedTo: ConnectTarget[] = [];
afterEach(() => {
  for (const t of connectedTo) expect(t.host).toBe('127.0.0.1');
  connectedTo.length = 0;
});

/** The only connect that opens sockets: to 127.0.0.1, whatever the code under test asks for. */
const loopbackConnect = vi.fn<ConnectFn>((target) => {
  connectedTo.push(target);
  if (target.host !== '127.0.0.1') return Promise.reject(new Error(`test guard: refusing to connect to ${target.host}`));
  return defaultConnect(target);
});

const noLookup: LookupFn = async (host) => {
  throw Object.assign(new Error(`test: no DNS (asked for ${host})`), { code: 'ENOTFOUND' });
};

const deps: SafeRequestDeps = { connect: loopbackConnect, lookup: noLookup };

function options(over: Partial<ImportSourceOptions> = {}): ImportSourceOptions {
  return { allowInsecure: true, maxBytes: 1 << 30, headersTimeoutMs: 2000, idleTimeoutMs: 2000, ...over };
}

function expectSource(r: ImportSource | ImportSourceFailure): ImportSource {
  if (!r.ok) throw new Error(`expected a source, got ${r.reason}: ${r.message}`);
  return r;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Hashes a body as it streams; never holds it whole. */
async function streamedSha256(body: Readable): Promise<{ hash: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    h.update(chunk);
    bytes += chunk.length;
  }
  return { hash: h.digest('hex'), bytes };
}

/** Reads a body to its end or its error: the bytes that came through, and the error. */
async function drain(body: Readable): Promise<{ bytes: Buffer; error: ImportSourceError | null }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    return { bytes: Buffer.concat(chunks), error: null };
  } catch (err) {
    if (!(err instanceof ImportSourceError)) throw err;
    return { bytes: Buffer.concat(chunks), error: err };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------

describe('a plain fetch', () => {
  it('streams the exact bytes of a 6 MB file and reports its size, validator, range support and type', async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const o = await origins.start(serveFile(bytes, { contentType: 'Application/Zip; charset=binary' }));
    const source = expectSource(await openImportSource(`${o.url}/data/archive.zip?sig=abc#frag`, options({ expectedSize: bytes.length }), deps));
    expect(source).toMatchObject({
      status: 200,
      url: `${o.url}/data/archive.zip?sig=abc`,
      redirects: 0,
      remoteAddress: '127.0.0.1',
      offset: 0,
      resumed: false,
      restarted: false,
      totalSize: bytes.length,
      contentLength: bytes.length,
      acceptsRanges: true,
      validator: '"v1"',
      contentType: 'application/zip',
      suggestedName: null,
    });
    expect(await streamedSha256(source.body)).toEqual({ hash: sha256(bytes), bytes: bytes.length });
    await expect(source.finished()).resolves.toBeUndefined();
    const req = o.requests[0]!;
    expect(req).toMatchObject({ method: 'GET', url: '/data/archive.zip?sig=abc' });
    expect(req.headers).toMatchObject({ 'accept-encoding': 'identity', host: `127.0.0.1:${o.port}` });
    expect(req.headers.range).toBeUndefined();
    expect(req.headers['if-range']).toBeUndefined();
  });

  it('does not read ahead of its reader: an unread body holds well under a megabyte', async () => {
    const bytes = randomBytes(8 * 1024 * 1024);
    const o = await origins.start(serveFile(bytes));
    const source = expectSource(await openImportSource(`${o.url}/big.bin`, options(), deps));
    await sleep(150);
    expect(source.body.readableLength).toBeLessThan(1024 * 1024);
    expect((await streamedSha256(source.body)).hash).toBe(sha256(bytes));
  });

  it('learns the size from Content-Length when none was declared; a chunked answer has none', async () => {
    const bytes = randomBytes(10_000);
    const sized = await origins.start(serveFile(bytes));
    const chunked = await origins.start(serveFile(bytes, { chunked: true }));
    expect(expectSource(await openImportSource(`${sized.url}/a`, options(), deps)).totalSize).toBe(10_000);
    const open = expectSource(await openImportSource(`${chunked.url}/a`, options(), deps));
    expect([open.totalSize, open.contentLength]).toEqual([null, null]);
    expect((await drain(open.body)).bytes.equals(bytes)).toBe(true);
    await expect(open.finished()).resolves.toBeUndefined();
  });

  it('finished() resolves once exactly the expected bytes were read, without reading past them', async () => {
    const bytes = randomBytes(1_500_000);
    const o = await origins.start(serveFile(bytes));
    const source = expectSource(await openImportSource(`${o.url}/x`, options({ expectedSize: bytes.length }), deps));
    // Like the importer: pull chunks until the size is reached, then ask whether the body was right.
    const chunks = source.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let read = 0;
    while (read < bytes.length) {
      const next = await chunks.next();
      if (next.done) break;
      read += next.value.length;
    }
    expect(read).toBe(bytes.length);
    await expect(source.finished()).resolves.toBeUndefined();
    source.close();
  });

  it('close() stops the download and closes the connection', async () => {
    const o = await origins.start(serveFile(randomBytes(4 * 1024 * 1024)));
    const source = expectSource(await openImportSource(`${o.url}/x`, options(), deps));
    source.close();
    source.close();
    await expect(source.finished()).rejects.toMatchObject({ reason: 'connection_error' });
    expect(source.body.destroyed).toBe(true);
  });
});

describe('https and allowInsecure', () => {
  // A stand-in for TLS: "files.example.test" resolves to a public address, and this connect takes the
  // checked public address to the plain-HTTP origin on 127.0.0.1 (never anywhere else), reporting the
  // checked address as the peer. What is under test is the policy, not TLS (safe-request.test.ts covers TLS).
  const PUBLIC_IP = '93.184.216.34';
  const publicLookup = vi.fn<LookupFn>(async (host) => {
    if (host !== 'files.example.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: PUBLIC_IP, family: 4 }];
  });
  function pretendPublic(origin: TestOrigin) {
    return vi.fn<ConnectFn>(async (target) => {
      if (target.host !== PUBLIC_IP) throw new Error(`test guard: refusing ${target.host}`);
      const socket = await defaultConnect({ host: '127.0.0.1', port: origin.port, signal: target.signal });
      Object.defineProperty(socket, 'remoteAddress', { value: PUBLIC_IP });
      return socket;
    });
  }

  it('without allowInsecure, http://127.0.0.1 is refused before connecting, and so is https://127.0.0.1', async () => {
    const o = await origins.start(serveFile(Buffer.from('secret')));
    const connect = vi.fn<ConnectFn>((t) => loopbackConnect(t));
    const http = await openImportSource(`${o.url}/x`, options({ allowInsecure: false }), { connect, lookup: noLookup });
    expect(http).toMatchObject({ ok: false, reason: 'insecure_scheme' });
    const https = await openImportSource(`https://127.0.0.1:${o.port}/x`, options({ allowInsecure: false }), { connect, lookup: noLookup });
    expect(https).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).not.toHaveBeenCalled();
    expect(o.connections).toBe(0);
  });

  it('a redirect from https to http fails insecure_scheme when http is not allowed, without connecting again', async () => {
    const o = await origins.start((req, res, origin) =>
      req.url === '/start' ? redirectTo('http://files.example.test/file.bin')(req, res, origin) : serveFile(Buffer.from('plain'))(req, res, origin),
    );
    const connect = pretendPublic(o);
    const r = await openImportSource('https://files.example.test/start', options({ allowInsecure: false }), { connect, lookup: publicLookup });
    expect(r).toMatchObject({ ok: false, reason: 'insecure_scheme', url: 'http://files.example.test/file.bin' });
    expect((r as ImportSourceFailure).message).toMatch(/https/);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(o.requests.map((q) => q.url)).toEqual(['/start']);
  });

  it('an https URL of a public host is fetched with allowInsecure off', async () => {
    const bytes = randomBytes(1000);
    const o = await origins.start(serveFile(bytes));
    const connect = pretendPublic(o);
    const source = expectSource(
      await openImportSource('https://files.example.test/f.bin', options({ allowInsecure: false }), { connect, lookup: publicLookup }),
    );
    expect(source.remoteAddress).toBe(PUBLIC_IP);
    expect((await drain(source.body)).bytes.equals(bytes)).toBe(true);
    expect(connect.mock.calls[0]![0]).toMatchObject({ host: PUBLIC_IP, port: 443, tls: { servername: 'files.example.test' } });
  });
});

describe('redirects', () => {
  it('follows 5 redirects, relative and across origins, each checked again, and reports the final URL', async () => {
    const bytes = randomBytes(50_000);
    const files = await origins.start(serveFile(bytes));
    const hops = await origins.start(redirectChain(`${files.url}/final/Report%202026.pdf`, 301));
    const connectsBefore = loopbackConnect.mock.calls.length;
    const source = expectSource(await openImportSource(hopsUrl(hops, MAX_IMPORT_REDIRECTS), options({ expectedSize: bytes.length }), deps));
    // The final URL is reported, but does not name the file: only Content-Disposition does.
    expect(source).toMatchObject({ url: `${files.url}/final/Report%202026.pdf`, redirects: 5, suggestedName: null });
    expect((await drain(source.body)).bytes.equals(bytes)).toBe(true);
    expect(hops.requests.map((r) => r.url)).toEqual(['/hop/5/file.bin', '/hop/4/file.bin', '/hop/3/file.bin', '/hop/2/file.bin', '/hop/1/file.bin']);
    // One checked connection per request: nothing reused, nothing skipped.
    expect(loopbackConnect.mock.calls.length - connectsBefore).toBe(6);
  });

  it.each([301, 302, 303, 307, 308])('follows a %i', async (status) => {
    const files = await origins.start(serveFile(Buffer.from('ok')));
    const hop = await origins.start(redirectTo(`${files.url}/f`, status));
    expect(expectSource(await openImportSource(`${hop.url}/`, options(), deps)).redirects).toBe(1);
  });

  it('a 6th redirect fails too_many_redirects and its target is never asked', async () => {
    const files = await origins.start(serveFile(Buffer.from('never')));
    const hops = await origins.start(redirectChain(`${files.url}/f`));
    const r = await openImportSource(hopsUrl(hops, MAX_IMPORT_REDIRECTS + 1), options(), deps);
    expect(r).toMatchObject({ ok: false, reason: 'too_many_redirects' });
    expect(hops.requests).toHaveLength(6);
    expect(files.requests).toHaveLength(0);
  });

  it.each(['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'http://[::ffff:10.0.0.1]/', 'http://0.0.0.0:80/'])(
    'a redirect to %s is refused without connecting to it',
    async (location) => {
      const hop = await origins.start(redirectTo(location));
      const connect = vi.fn<ConnectFn>((t) => loopbackConnect(t));
      const r = await openImportSource(`${hop.url}/x`, options(), { connect, lookup: noLookup });
      expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
      expect((r as ImportSourceFailure).message).toMatch(/not allowed/);
      expect(connect.mock.calls.map((c) => c[0].host)).toEqual(['127.0.0.1']);
    },
  );

  it('a redirect to a name resolving to a private address is refused without connecting to it', async () => {
    const hop = await origins.start(redirectTo('http://internal.example.test/admin'));
    const lookup = vi.fn<LookupFn>(async () => [{ address: '192.168.1.10', family: 4 }]);
    const connect = vi.fn<ConnectFn>((t) => loopbackConnect(t));
    const r = await openImportSource(`${hop.url}/x`, options(), { connect, lookup });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(lookup).toHaveBeenCalledWith('internal.example.test');
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('a redirect without Location, or to something that is not http(s), fails', async () => {
    const bare = await origins.start((_req, res) => res.writeHead(302).end());
    expect(await openImportSource(`${bare.url}/`, options(), deps)).toMatchObject({ ok: false, reason: 'invalid_response' });
    const ftp = await origins.start(redirectTo('ftp://127.0.0.1/file'));
    expect(await openImportSource(`${ftp.url}/`, options(), deps)).toMatchObject({ ok: false, reason: 'invalid_url' });
  });
});

describe('sizes', () => {
  it('refuses a Content-Length other than the declared size before reading the body', async () => {
    const o = await origins.start(serveFile(randomBytes(5000)));
    const longer = await openImportSource(`${o.url}/a`, options({ expectedSize: 4000 }), deps);
    expect(longer).toMatchObject({ ok: false, reason: 'longer_than_declared' });
    expect((longer as ImportSourceFailure).message).toContain('5000');
    expect(await openImportSource(`${o.url}/a`, options({ expectedSize: 6000 }), deps)).toMatchObject({ ok: false, reason: 'shorter_than_declared' });
  });

  it('refuses a Content-Length above maxBytes before reading the body, and a declared size above it without connecting', async () => {
    const o = await origins.start(serveFile(randomBytes(5000)));
    expect(await openImportSource(`${o.url}/a`, options({ maxBytes: 4999 }), deps)).toMatchObject({ ok: false, reason: 'too_large' });
    const before = o.connections;
    expect(await openImportSource(`${o.url}/a`, options({ maxBytes: 4999, expectedSize: 5000 }), deps)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(o.connections).toBe(before);
  });

  it('a chunked body longer than declared fails as it streams (longer_than_declared)', async () => {
    const o = await origins.start(serveFile(randomBytes(300_000), { chunked: true }));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ expectedSize: 100_000 }), deps));
    const { bytes, error } = await drain(source.body);
    expect(error?.reason).toBe('longer_than_declared');
    expect(bytes.length).toBeLessThanOrEqual(100_000);
    await expect(source.finished()).rejects.toMatchObject({ reason: 'longer_than_declared' });
  });

  it('a chunked body larger than maxBytes fails as it streams (too_large), never passing more than maxBytes', async () => {
    const o = await origins.start(serveFile(randomBytes(2_000_000), { chunked: true }));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ maxBytes: 1_000_000 }), deps));
    const { bytes, error } = await drain(source.body);
    expect(error?.reason).toBe('too_large');
    expect(bytes.length).toBeLessThanOrEqual(1_000_000);
  });

  it('a chunked body shorter than declared fails at its end (shorter_than_declared)', async () => {
    const bytes = randomBytes(70_000);
    const o = await origins.start(serveFile(bytes, { chunked: true }));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ expectedSize: 80_000 }), deps));
    const got = await drain(source.body);
    expect(got.error?.reason).toBe('shorter_than_declared');
    expect(got.error?.message).toContain('70000 of the 80000');
    await expect(source.finished()).rejects.toMatchObject({ reason: 'shorter_than_declared' });
  });

  it('a Content-Length larger than the body, then a closed connection, fails mid-body as connection_error', async () => {
    const o = await origins.start(lyingLength(randomBytes(30_000), 50_000));
    const source = expectSource(await openImportSource(`${o.url}/a`, options(), deps));
    expect(source.totalSize).toBe(50_000);
    const { bytes, error } = await drain(source.body);
    expect(error?.reason).toBe('connection_error');
    expect(error?.message).toMatch(/closed after 30000 of 50000 bytes/);
    expect(bytes.length).toBe(30_000);
    await expect(source.finished()).rejects.toMatchObject({ reason: 'connection_error' });
  });

  it('a Content-Length smaller than the body: only the announced bytes come through, and a declared size catches the lie', async () => {
    const bytes = randomBytes(30_000);
    const o = await origins.start(lyingLength(bytes, 20_000));
    const source = expectSource(await openImportSource(`${o.url}/a`, options(), deps));
    const got = await drain(source.body);
    expect(got.error).toBeNull();
    expect(got.bytes.equals(bytes.subarray(0, 20_000))).toBe(true);
    expect(await openImportSource(`${o.url}/a`, options({ expectedSize: 30_000 }), deps)).toMatchObject({ ok: false, reason: 'shorter_than_declared' });
  });
});

describe('time-outs', () => {
  it('a body that stalls fails with idle_timeout after idleTimeoutMs', async () => {
    const bytes = randomBytes(100_000);
    const o = await origins.start(stallAfter(bytes, 40_000));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ idleTimeoutMs: 200 }), deps));
    const t0 = Date.now();
    const { bytes: got, error } = await drain(source.body);
    const took = Date.now() - t0;
    expect(error?.reason).toBe('idle_timeout');
    expect(error?.message).toMatch(/200 ms/);
    expect(got.equals(bytes.subarray(0, 40_000))).toBe(true);
    expect(took).toBeGreaterThanOrEqual(180);
    expect(took).toBeLessThan(1500);
  });

  it('a slow reader is not an idle origin: time spent not reading does not count', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const o = await origins.start(serveFile(bytes));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ idleTimeoutMs: 150 }), deps));
    const h = createHash('sha256');
    let n = 0;
    for await (const chunk of source.body as AsyncIterable<Buffer>) {
      h.update(chunk);
      // Like a storage write that takes a while, twice.
      n++;
      if (n === 3 || n === 20) await sleep(400);
    }
    expect(h.digest('hex')).toBe(sha256(bytes));
  });

  it('an origin that never answers fails with timeout after headersTimeoutMs', async () => {
    const o = await origins.start(neverAnswer());
    const t0 = Date.now();
    expect(await openImportSource(`${o.url}/a`, options({ headersTimeoutMs: 200 }), deps)).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('deadlineMs bounds the whole fetch, body included', async () => {
    const o = await origins.start(stallAfter(randomBytes(100_000), 10_000));
    const source = expectSource(await openImportSource(`${o.url}/a`, options({ idleTimeoutMs: 5000, deadlineMs: 300 }), deps));
    const t0 = Date.now();
    const { error } = await drain(source.body);
    expect(error?.reason).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});

describe('resuming', () => {
  const bytes = randomBytes(200_000);

  it('asks for the rest with Range and If-Range; a 206 from the offset resumes', async () => {
    const o = await origins.start(serveFile(bytes));
    const source = expectSource(
      await openImportSource(`${o.url}/f`, options({ expectedSize: bytes.length, from: { offset: 150_000, validator: '"v1"' } }), deps),
    );
    expect(o.requests[0]!.headers).toMatchObject({ range: 'bytes=150000-', 'if-range': '"v1"' });
    expect(source).toMatchObject({
      status: 206,
      resumed: true,
      restarted: false,
      offset: 150_000,
      totalSize: bytes.length,
      contentLength: 50_000,
      validator: '"v1"',
    });
    expect((await drain(source.body)).bytes.equals(bytes.subarray(150_000))).toBe(true);
    await expect(source.finished()).resolves.toBeUndefined();
  });

  it('resumes on Last-Modified when there is no strong ETag (a weak one is never a validator)', async () => {
    const o = await origins.start(serveFile(bytes, { etag: 'W/"weak"' }));
    const first = expectSource(await openImportSource(`${o.url}/f`, options(), deps));
    first.close();
    expect(first.validator).toBe(TEST_LAST_MODIFIED);
    const source = expectSource(await openImportSource(`${o.url}/f`, options({ from: { offset: 1000, validator: first.validator! } }), deps));
    expect(o.requests[1]!.headers['if-range']).toBe(TEST_LAST_MODIFIED);
    expect(source).toMatchObject({ resumed: true, offset: 1000 });
    expect((await drain(source.body)).bytes.equals(bytes.subarray(1000))).toBe(true);

    const none = await origins.start(serveFile(bytes, { etag: 'W/"weak"', lastModified: null }));
    const unvalidated = expectSource(await openImportSource(`${none.url}/f`, options(), deps));
    unvalidated.close();
    expect(unvalidated.validator).toBeNull();
  });

  it('a file that changed answers 200 to If-Range: restarted, with the whole new file and its new validator', async () => {
    const v2 = randomBytes(120_000);
    const o = await origins.start(
      changingFile([
        { bytes, etag: '"v1"' },
        { bytes: v2, etag: '"v2"' },
      ]),
    );
    expectSource(await openImportSource(`${o.url}/f`, options(), deps)).close();
    const source = expectSource(await openImportSource(`${o.url}/f`, options({ from: { offset: 100_000, validator: '"v1"' } }), deps));
    expect(source).toMatchObject({ status: 200, resumed: false, restarted: true, offset: 0, totalSize: v2.length, validator: '"v2"' });
    expect((await drain(source.body)).bytes.equals(v2)).toBe(true);
  });

  it('an origin without range support answers 200: restarted, and acceptsRanges is false', async () => {
    const o = await origins.start(serveFile(bytes, { ranges: false }));
    const source = expectSource(await openImportSource(`${o.url}/f`, options({ from: { offset: 100_000, validator: '"v1"' } }), deps));
    expect(source).toMatchObject({ restarted: true, resumed: false, acceptsRanges: false, offset: 0 });
    expect((await drain(source.body)).bytes.equals(bytes)).toBe(true);
  });

  it('a 206 of another version (an origin that ignores If-Range) is not used: the whole file is fetched again', async () => {
    const v2 = randomBytes(150_000);
    const o = await origins.start(changingFile([{ bytes: v2, etag: '"v2"' }], { honourIfRange: false }));
    const source = expectSource(await openImportSource(`${o.url}/f`, options({ from: { offset: 100_000, validator: '"v1"' } }), deps));
    expect(o.requests.map((r) => r.headers.range)).toEqual(['bytes=100000-', undefined]);
    expect(source).toMatchObject({ status: 200, restarted: true, resumed: false, validator: '"v2"' });
    expect((await drain(source.body)).bytes.equals(v2)).toBe(true);
  });

  it('a resume past the end of a file that shrank (416) fetches it whole', async () => {
    const small = randomBytes(1000);
    const o = await origins.start(serveFile(small));
    const source = expectSource(await openImportSource(`${o.url}/f`, options({ from: { offset: 5000, validator: '"v1"' } }), deps));
    expect(o.requests.map((r) => r.headers.range)).toEqual(['bytes=5000-', undefined]);
    expect(source).toMatchObject({ status: 200, restarted: true, offset: 0, totalSize: 1000 });
    expect((await drain(source.body)).bytes.equals(small)).toBe(true);
  });

  it('a 206 from another offset, or one nobody asked for, is invalid_response', async () => {
    const wrongStart = await origins.start((_req, res) =>
      res.writeHead(206, { 'content-range': `bytes 0-99/200`, 'content-length': '100', etag: '"v1"' }).end(Buffer.alloc(100)),
    );
    expect(await openImportSource(`${wrongStart.url}/f`, options({ from: { offset: 100, validator: '"v1"' } }), deps)).toMatchObject({
      ok: false,
      reason: 'invalid_response',
    });
    expect(await openImportSource(`${wrongStart.url}/f`, options(), deps)).toMatchObject({ ok: false, reason: 'invalid_response' });
  });

  it('a resumed body is held to the declared total: more bytes than the rest fail', async () => {
    const o = await origins.start(serveFile(bytes));
    // The origin announces 200000 in all; the caller declared 180000.
    const r = await openImportSource(`${o.url}/f`, options({ expectedSize: 180_000, from: { offset: 100_000, validator: '"v1"' } }), deps);
    expect(r).toMatchObject({ ok: false, reason: 'longer_than_declared' });
  });
});

describe('error answers', () => {
  it('a 404 is http_error with its status, in words fit for a person', async () => {
    const o = await origins.start(answerStatus(404, 'nope'));
    const r = await openImportSource(`${o.url}/gone.zip`, options(), deps);
    expect(r).toEqual({
      ok: false,
      reason: 'http_error',
      status: 404,
      url: `${o.url}/gone.zip`,
      message: `The server at 127.0.0.1:${o.port} answered 404 Not Found.`,
    });
  });

  it.each([
    [500, 'server_error'],
    [503, 'server_error'],
    [429, 'server_error'],
    [403, 'http_error'],
    [410, 'http_error'],
    [304, 'http_error'],
  ])('%i is %s', async (status, reason) => {
    const o = await origins.start(answerStatus(status));
    expect(await openImportSource(`${o.url}/f`, options(), deps)).toMatchObject({ ok: false, reason, status });
  });

  it('a refused connection is connection_error', async () => {
    const o = await origins.start(neverAnswer());
    await o.close();
    expect(await openImportSource(`${o.url}/f`, options(), deps)).toMatchObject({ ok: false, reason: 'connection_error' });
  });

  it('an invalid URL is invalid_url', async () => {
    expect(await openImportSource('not a url', options(), deps)).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await openImportSource('https://user:pw@127.0.0.1/', options(), deps)).toMatchObject({ ok: false, reason: 'invalid_url' });
  });
});

describe('the suggested name', () => {
  it('comes from Content-Disposition, filename* (UTF-8) before filename', async () => {
    const o = await origins.start(
      serveFile(Buffer.from('x'), { contentDisposition: `attachment; filename="Rapport EUR.pdf"; filename*=UTF-8''Rapport%20%E2%82%AC%20%C3%A9t%C3%A9.pdf` }),
    );
    expect(expectSource(await openImportSource(`${o.url}/download?id=7`, options(), deps)).suggestedName).toBe('Rapport € été.pdf');
  });

  it('is null without Content-Disposition, whatever the URL path says (the caller names the file from its own URL)', async () => {
    const o = await origins.start(serveFile(Buffer.from('x')));
    expect(expectSource(await openImportSource(`${o.url}/files/Quarterly%20report%20%E2%82%AC.pdf?sig=x`, options(), deps)).suggestedName).toBeNull();
  });

  it.each([
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="..\\\\..\\\\windows\\\\win.ini"', 'win.ini'],
    ['attachment; filename=".."', null],
    ['attachment; filename="a\u0007b\u0000c.txt"', 'abc.txt'],
    ['attachment; filename="invoice\u202Efdp.exe"', 'invoicefdp.exe'],
    ["attachment; filename*=UTF-8''..%2F..%2Fetc%2Fshadow", 'shadow'],
    ["attachment; filename*=UTF-8''evil%0D%0AX-Injected%3A%201.txt", 'evilX-Injected: 1.txt'],
    ['attachment; filename*=UTF-8\'\'%FF%FE.txt; filename="fallback.txt"', 'fallback.txt'],
    ["attachment; filename*=iso-8859-1'en'%E9t%E9.txt", 'été.txt'],
    ['attachment; filename="quoted \\"name\\"; with semicolon.txt"', 'quoted "name"; with semicolon.txt'],
    ['attachment; filename=plain.txt', 'plain.txt'],
    ['inline', null],
    ['attachment; filename="   "', null],
  ])('Content-Disposition %j → %j', (header, expected) => {
    expect(nameFromContentDisposition(header)).toBe(expected);
  });

  it('decodes a raw UTF-8 filename= (read by node as Latin-1)', () => {
    const raw = Buffer.from('attachment; filename="Übersicht.pdf"', 'utf8').toString('latin1');
    expect(nameFromContentDisposition(raw)).toBe('Übersicht.pdf');
  });

  it.each([
    ['https://h.example/a/b/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', 'passwd'],
    ['https://h.example/dl/report%0A%1B%5B31m.pdf', 'report[31m.pdf'],
    ['https://h.example/dl/%E0%A4%A', '%E0%A4%A'],
    ['https://h.example/dl/..', null],
    ['https://h.example/', null],
  ])('URL %s → %j', (url, expected) => {
    expect(nameFromUrlPath(url)).toBe(expected);
  });

  it('cuts a long name to 255 characters, keeping its extension', () => {
    const name = sanitizeFileName(`${'é'.repeat(300)}.tar.gz`)!;
    expect(Array.from(name)).toHaveLength(255);
    expect(name.endsWith('.gz')).toBe(true);
    expect(Array.from(sanitizeFileName('😀'.repeat(300))!)).toHaveLength(255);
  });
});
