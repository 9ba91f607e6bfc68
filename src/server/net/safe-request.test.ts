/**
 * These tests never open a connection to any address outside 127.0.0.0/8 and ::1, even if the
 * guard were broken: every non-loopback case runs through an injected lookup and an injected
 * connect that records the call and fails instead of connecting. Real sockets are opened only
 * by `loopbackOnlyConnect`, which refuses any host but 127.0.0.1 / ::1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ConnectFn,
  type ConnectTarget,
  type LookupFn,
  type SafeRequestInit,
  type SafeStreamInit,
  StreamError,
  checkUrlForCreation,
  defaultConnect,
  safeRequest,
  safeStream,
} from './safe-request.js';

// ---------------------------------------------------------------------------------------------
// Guards

/** A connect that must never be reached: records the call (asserted afterwards) and fails. */
function forbiddenConnect() {
  return vi.fn<ConnectFn>(async (target) => {
    throw new Error(`connect must not be called (asked for ${target.host}:${target.port})`);
  });
}

/** A lookup that must never be reached (literal hosts need no DNS). */
function forbiddenLookup() {
  return vi.fn<LookupFn>(async (host) => {
    throw new Error(`lookup must not be called (asked for ${host})`);
  });
}

/** A lookup answering from a fixed table. */
function tableLookup(table: Record<string, string[]>) {
  return vi.fn<LookupFn>(async (host) => {
    const addrs = table[host];
    if (!addrs) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addrs.map((address) => ({ address, family: net.isIP(address) }));
  });
}

/** The only connect that opens real sockets: loopback only, whatever the code under test asks for. */
const loopbackConnects: ConnectTarget[] = [];
const loopbackOnlyConnect: ConnectFn = (target) => {
  loopbackConnects.push(target);
  if (target.host !== '127.0.0.1' && target.host !== '::1') {
    return Promise.reject(new Error(`test guard: refusing to connect to ${target.host}`));
  }
  return defaultConnect(target);
};

function init(over: Partial<SafeRequestInit> = {}): SafeRequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 2000, allowInsecure: false, ...over };
}

// ---------------------------------------------------------------------------------------------
// Local servers (127.0.0.1 only)

interface LocalServer {
  url: string;
  port: number;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  connections: number;
  close(): Promise<void>;
}

const servers: LocalServer[] = [];

async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res);
    });
  });
  const s: LocalServer = {
    url: '',
    port: 0,
    requests,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const sock of sockets) sock.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (sock) => {
    s.connections++;
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.port = (server.address() as AddressInfo).port;
  s.url = `http://127.0.0.1:${s.port}`;
  servers.push(s);
  return s;
}

// A self-signed certificate for hooks.example.test (valid until 2126), for the TLS tests on 127.0.0.1.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7EtYlzDW8pJs8OxW
7a7PSYzPJ1z1XtXSwh+2AXysEPGhRANCAATUNxsy7v4RLheEAPhPmUk5bSIN4c7X
a0vwEMcJd97soPfEZP45WOSL1x/l3AW5ae03ZhydIWXmz1klcQFFEH0r
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBsTCCAVagAwIBAgIUZHi26ntOYM4hKEuy8ocehtSRdaYwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSaG9va3MuZXhhbXBsZS50ZXN0MCAXDTI2MTEyMjAxMDAxNFoY
DzIxMjYxMDI5MDEwMDE0WjAdMRswGQYDVQQDDBJob29rcy5leGFtcGxlLnRlc3Qw
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATUNxsy7v4RLheEAPhPmUk5bSIN4c7X
a0vwEMcJd97soPfEZP45WOSL1x/l3AW5ae03ZhydIWXmz1klcQFFEH0ro3IwcDAd
BgNVHQ4EFgQUZxKGyjr8QmTPkYC/e/51szEehdQwHwYDVR0jBBgwFoAUZxKGyjr8
QmTPkYC/e/51szEehdQwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHREEFjAUghJob29r
cy5leGFtcGxlLnRlc3QwCgYIKoZIzj0EAwIDSQAwRgIhAMar12HMxZJq4ow6D61M
29GTveIlGCHR0g73mdvQUbq1AiEA9SaMH6ynC4SOQYfjgAVkortNf3+V7JTz3pGu
Yy/p/I4=
-----END CERTIFICATE-----`;

async function startTlsServer(onServername: (name: string) => void): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = tls.createServer(
    {
      key: TEST_KEY,
      cert: TEST_CERT,
      ALPNProtocols: ['http/1.1'],
      // Runs during the handshake, so the SNI is seen even when the client then rejects the certificate.
      SNICallback: (name, cb) => {
        onServername(name);
        cb(null, undefined);
      },
    },
    (sock) => {
      http
        .createServer((req, res) => {
          requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
          res.end('secure hello');
        })
        .emit('connection', sock);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const s: LocalServer = {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    connections: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('connection', () => s.connections++);
  server.on('tlsClientError', () => {});
  servers.push(s);
  return s;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

afterEach(() => {
  // Whatever a test did, the real-socket connect was only ever asked for loopback.
  for (const t of loopbackConnects) expect(['127.0.0.1', '::1']).toContain(t.host);
  loopbackConnects.length = 0;
});

// ---------------------------------------------------------------------------------------------

describe('safeRequest: URL validation', () => {
  it.each([
    ['not a url', 'invalid_url'],
    ['ftp://example.com/', 'invalid_url'],
    ['file:///etc/passwd', 'invalid_url'],
    ['https://user:pw@example.com/', 'invalid_url'],
    ['https://user@example.com/', 'invalid_url'],
    ['http://example.com/', 'insecure_scheme'],
    ['https://example.com:0/', 'invalid_url'],
  ])('%s → %s', async (url, reason) => {
    const connect = forbiddenConnect();
    const lookup = forbiddenLookup();
    const r = await safeRequest(url, init(), { connect, lookup });
    expect(r).toMatchObject({ ok: false, reason });
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    expect(connect).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('safeRequest: literal addresses are refused without DNS or connecting', () => {
  const literals = [
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://0x7f.1/',
    'https://2130706433/',
    'https://017700000001/',
    'https://127.1/',
    'https://0.0.0.0/',
    'https://10.0.0.1/',
    'https://172.16.5.4:8443/hook',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[::]/',
    'https://[64:ff9b::a00:1]/',
    'https://[2002:7f00:1::]/',
    'https://[::ffff:169.254.169.254]/',
  ];
  it.each(literals)('%s', async (url) => {
    const connect = forbiddenConnect();
    const lookup = forbiddenLookup();
    const r = await safeRequest(url, init(), { connect, lookup });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each(['http://0.0.0.0/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/', 'http://[::ffff:10.0.0.1]/'])(
    'allowInsecure still refuses non-loopback %s',
    async (url) => {
      const connect = forbiddenConnect();
      const r = await safeRequest(url, init({ allowInsecure: true }), { connect, lookup: forbiddenLookup() });
      expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
      expect(connect).not.toHaveBeenCalled();
    },
  );
});

describe('safeRequest: resolved names', () => {
  it('refuses a name that resolves to a private address, without connecting', async () => {
    const connect = forbiddenConnect();
    const lookup = tableLookup({ 'hooks.example.test': ['10.0.0.5'] });
    const r = await safeRequest('https://hooks.example.test/hook', init(), { connect, lookup });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(connect).not.toHaveBeenCalled();
  });

  it.each([
    [['8.8.8.8', '10.0.0.5']],
    [['2606:4700::1111', '::1']],
    [['8.8.8.8', '::ffff:127.0.0.1']],
    [['169.254.169.254']],
    [['fd00::1']],
    [['0.0.0.0']],
    [['not-an-address']],
  ])('refuses when any resolved address is forbidden: %j', async (addrs) => {
    const connect = forbiddenConnect();
    const r = await safeRequest('https://hooks.example.test/', init(), { connect, lookup: tableLookup({ 'hooks.example.test': addrs }) });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).not.toHaveBeenCalled();
  });

  it('refuses a name resolving to loopback unless allowInsecure', async () => {
    const connect = forbiddenConnect();
    const r = await safeRequest('https://localhost.example.test/', init(), {
      connect,
      lookup: tableLookup({ 'localhost.example.test': ['127.0.0.1', '::1'] }),
    });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).not.toHaveBeenCalled();
  });

  it('reports DNS failure and an empty answer as dns_failure', async () => {
    const connect = forbiddenConnect();
    const r1 = await safeRequest('https://missing.example.test/', init(), { connect, lookup: tableLookup({}) });
    expect(r1).toMatchObject({ ok: false, reason: 'dns_failure' });
    expect((r1 as { message: string }).message).toContain('ENOTFOUND');
    const r2 = await safeRequest('https://empty.example.test/', init(), { connect, lookup: tableLookup({ 'empty.example.test': [] }) });
    expect(r2).toMatchObject({ ok: false, reason: 'dns_failure' });
    expect(connect).not.toHaveBeenCalled();
  });

  it('DNS rebinding: resolves once and connects to exactly the checked address', async () => {
    let calls = 0;
    const lookup = vi.fn<LookupFn>(async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]));
    const connect = vi.fn<ConnectFn>(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED (fake)'), { code: 'ECONNREFUSED' });
    });
    const r = await safeRequest('https://rebind.example.test:8443/hook', init(), { lookup, connect });
    expect(r).toMatchObject({ ok: false, reason: 'connection_error' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(connect.mock.calls[0]![0]).toMatchObject({ host: '93.184.216.34', port: 8443, tls: { servername: 'rebind.example.test' } });
  });

  it('tries the checked addresses in order, and only those', async () => {
    const lookup = tableLookup({ 'multi.example.test': ['2606:4700::1111', '8.8.8.8'] });
    const connect = vi.fn<ConnectFn>(async () => {
      throw new Error('unreachable (fake)');
    });
    const r = await safeRequest('https://multi.example.test/', init(), { lookup, connect });
    expect(r).toMatchObject({ ok: false, reason: 'connection_error' });
    expect(connect.mock.calls.map((c) => c[0].host)).toEqual(['2606:4700::1111', '8.8.8.8']);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('connects to an IPv4-mapped answer as plain IPv4', async () => {
    const connect = vi.fn<ConnectFn>(async () => {
      throw new Error('stop here (fake)');
    });
    await safeRequest('https://mapped.example.test/', init(), { lookup: tableLookup({ 'mapped.example.test': ['::ffff:8.8.8.8'] }), connect });
    expect(connect.mock.calls.map((c) => c[0].host)).toEqual(['8.8.8.8']);
  });

  it('a socket that arrives after the deadline is closed', async () => {
    const late = new net.Socket();
    const connect: ConnectFn = () => new Promise((resolve) => setTimeout(() => resolve(late), 150));
    const r = await safeRequest('https://late.example.test/', init({ timeoutMs: 50 }), {
      lookup: tableLookup({ 'late.example.test': ['93.184.216.34'] }),
      connect,
    });
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(late.destroyed).toBe(true);
  });

  it('https: connect gets the checked IP as host and the URL host name as TLS servername', async () => {
    const seen: ConnectTarget[] = [];
    const connect: ConnectFn = async (t) => {
      seen.push(t);
      throw new Error('stop here (fake)');
    };
    const lookup = tableLookup({ 'hooks.example.test': ['127.0.0.1'] });
    const r = await safeRequest('https://hooks.example.test:9443/x', init({ allowInsecure: true }), { lookup, connect });
    expect(r).toMatchObject({ ok: false, reason: 'connection_error' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ host: '127.0.0.1', port: 9443, tls: { servername: 'hooks.example.test' } });
  });

  it('http: connect gets no TLS options; default ports are 443 and 80', async () => {
    const seen: ConnectTarget[] = [];
    const connect: ConnectFn = async (t) => {
      seen.push(t);
      throw new Error('stop here (fake)');
    };
    const lookup = tableLookup({ 'hooks.example.test': ['127.0.0.1'] });
    await safeRequest('http://hooks.example.test/x', init({ allowInsecure: true }), { lookup, connect });
    await safeRequest('https://hooks.example.test/x', init({ allowInsecure: true }), { lookup, connect });
    expect(seen[0]!.port).toBe(80);
    expect(seen[0]!.tls).toBeUndefined();
    expect(seen[1]!.port).toBe(443);
  });

  it('checks the address actually connected to: a socket to anywhere else is refused before sending', async () => {
    const server = await startServer((_req, res) => res.end('should not be reached'));
    // A broken connect that was asked for a public address but ends up on loopback.
    const connect = vi.fn<ConnectFn>((t) => loopbackOnlyConnect({ ...t, host: '127.0.0.1', port: server.port, tls: undefined }));
    const lookup = tableLookup({ 'public.example.test': ['93.184.216.34'] });
    const r = await safeRequest('http://public.example.test/', init({ allowInsecure: true }), { lookup, connect });
    expect(r).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests).toHaveLength(0);
  });
});

describe('safeRequest: real requests to 127.0.0.1 (allowInsecure)', () => {
  let ok: LocalServer;
  beforeAll(async () => {
    ok = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-reply': 'yes' });
      res.end('received');
    });
  });

  it('posts the body and returns status, headers and body', async () => {
    const r = await safeRequest(`${ok.url}/hook?x=1#frag`, init({ allowInsecure: true, headers: { 'Content-Type': 'application/json', 'X-Sig': 'abc' } }), {
      connect: loopbackOnlyConnect,
      lookup: forbiddenLookup(),
    });
    expect(r).toMatchObject({ ok: true, status: 200, bodyText: 'received', truncated: false, remoteAddress: '127.0.0.1' });
    if (!r.ok) return;
    expect(r.headers['x-reply']).toBe('yes');
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    const got = ok.requests.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a":1}' });
    expect(got.headers).toMatchObject({ host: `127.0.0.1:${ok.port}`, 'content-type': 'application/json', 'x-sig': 'abc', 'content-length': '7' });
  });

  it('an IPv4-mapped loopback literal reaches 127.0.0.1 with allowInsecure', async () => {
    const r = await safeRequest(`http://[::ffff:127.0.0.1]:${ok.port}/mapped`, init({ allowInsecure: true }), {
      connect: loopbackOnlyConnect,
      lookup: forbiddenLookup(),
    });
    expect(r).toMatchObject({ ok: true, status: 200, remoteAddress: '127.0.0.1' });
  });

  it('GET without a body', async () => {
    const r = await safeRequest(`${ok.url}/`, init({ allowInsecure: true, method: 'GET', body: undefined }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(ok.requests.at(-1)).toMatchObject({ method: 'GET', body: '' });
  });

  it('a name resolving to 127.0.0.1 is allowed with allowInsecure and connects to that address', async () => {
    const lookup = tableLookup({ 'receiver.example.test': ['127.0.0.1'] });
    const r = await safeRequest(`http://receiver.example.test:${ok.port}/named`, init({ allowInsecure: true }), { connect: loopbackOnlyConnect, lookup });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(ok.requests.at(-1)!.headers.host).toBe(`receiver.example.test:${ok.port}`);
  });

  it('a 500 is a response (the caller decides it failed)', async () => {
    const s = await startServer((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    const r = await safeRequest(`${s.url}/`, init({ allowInsecure: true }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: true, status: 500, bodyText: 'boom' });
  });

  it('a redirect is a failure and its target is never requested', async () => {
    const target = await startServer((_req, res) => res.end('must not be requested'));
    const redirecting = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` });
      res.end();
    });
    for (const method of ['POST', 'GET'] as const) {
      const r = await safeRequest(`${redirecting.url}/`, init({ allowInsecure: true, method }), { connect: loopbackOnlyConnect });
      expect(r).toMatchObject({ ok: false, reason: 'redirect', status: 302, location: `http://127.0.0.1:${target.port}/` });
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(target.connections).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it.each([301, 303, 307, 308])('status %i is a redirect failure', async (status) => {
    const s = await startServer((_req, res) => {
      res.writeHead(status, { location: 'https://169.254.169.254/' });
      res.end();
    });
    const r = await safeRequest(`${s.url}/`, init({ allowInsecure: true }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: false, reason: 'redirect', status, location: 'https://169.254.169.254/' });
  });

  it('a receiver that never answers times out within timeoutMs', async () => {
    const silent = await startServer(() => {
      /* never answers */
    });
    const t0 = Date.now();
    const r = await safeRequest(`${silent.url}/`, init({ allowInsecure: true, timeoutMs: 300 }), { connect: loopbackOnlyConnect });
    const took = Date.now() - t0;
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1500);
    expect(r.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('a body that trickles past the deadline times out (total time, not idle time)', async () => {
    const trickle = await startServer((_req, res) => {
      res.writeHead(200);
      const iv = setInterval(() => {
        if (res.destroyed) clearInterval(iv);
        else res.write('x');
      }, 50);
      res.on('close', () => clearInterval(iv));
    });
    const r = await safeRequest(`${trickle.url}/`, init({ allowInsecure: true, timeoutMs: 300 }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('the deadline covers DNS and connect too', async () => {
    const hangingLookup: LookupFn = () => new Promise(() => {});
    const r1 = await safeRequest('https://slow-dns.example.test/', init({ timeoutMs: 100 }), { lookup: hangingLookup, connect: forbiddenConnect() });
    expect(r1).toMatchObject({ ok: false, reason: 'timeout' });

    let abortedSignal: AbortSignal | null = null;
    const hangingConnect: ConnectFn = (t) => {
      abortedSignal = t.signal;
      return new Promise(() => {});
    };
    const r2 = await safeRequest('https://slow.example.test/', init({ timeoutMs: 100 }), {
      lookup: tableLookup({ 'slow.example.test': ['93.184.216.34'] }),
      connect: hangingConnect,
    });
    expect(r2).toMatchObject({ ok: false, reason: 'timeout' });
    expect(abortedSignal!.aborted).toBe(true);
  });

  it('truncates a large body to maxResponseBytes', async () => {
    const big = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('a'.repeat(1024 * 1024));
    });
    const r = await safeRequest(`${big.url}/`, init({ allowInsecure: true, maxResponseBytes: 1000 }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: true, status: 200, truncated: true });
    if (r.ok) expect(r.bodyText).toBe('a'.repeat(1000));

    const dflt = await safeRequest(`${big.url}/`, init({ allowInsecure: true }), { connect: loopbackOnlyConnect });
    expect(dflt).toMatchObject({ ok: true, truncated: true });
    if (dflt.ok) expect(dflt.bodyText).toHaveLength(64 * 1024);
  });

  it('a refused connection is a connection_error', async () => {
    const s = await startServer(() => {});
    const port = s.port;
    await s.close();
    const r = await safeRequest(`http://127.0.0.1:${port}/`, init({ allowInsecure: true }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: false, reason: 'connection_error' });
  });

  it('without allowInsecure, http is refused and https to 127.0.0.1 is refused, neither connecting', async () => {
    const connect = forbiddenConnect();
    const before = ok.connections;
    const r1 = await safeRequest(`${ok.url}/`, init(), { connect });
    expect(r1).toMatchObject({ ok: false, reason: 'insecure_scheme' });
    const r2 = await safeRequest(`https://127.0.0.1:${ok.port}/`, init(), { connect });
    expect(r2).toMatchObject({ ok: false, reason: 'forbidden_address' });
    expect(connect).not.toHaveBeenCalled();
    expect(ok.connections).toBe(before);
  });
});

describe('safeRequest: TLS on 127.0.0.1', () => {
  it('the default connect verifies the certificate and sends the URL host name as SNI', async () => {
    const names: string[] = [];
    const s = await startTlsServer((n) => names.push(n));
    const lookup = tableLookup({ 'hooks.example.test': ['127.0.0.1'] });
    const r = await safeRequest(`https://hooks.example.test:${s.port}/`, init({ allowInsecure: true }), { lookup, connect: loopbackOnlyConnect });
    // Self-signed, so not trusted: verification is on.
    expect(r).toMatchObject({ ok: false, reason: 'connection_error' });
    expect((r as { message: string }).message).toMatch(/self[- ]signed/i);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(s.requests).toHaveLength(0);
    expect(names).toEqual(['hooks.example.test']);
  });

  it('a request goes over the checked TLS socket (connect trusting the test certificate)', async () => {
    const names: string[] = [];
    const s = await startTlsServer((n) => names.push(n));
    // Like defaultConnect, plus the test CA; still loopback only.
    const trustingConnect: ConnectFn = (t) =>
      new Promise((resolve, reject) => {
        loopbackConnects.push(t);
        if (t.host !== '127.0.0.1') return reject(new Error('test guard: loopback only'));
        const sock = tls.connect({ host: t.host, port: t.port, servername: t.tls?.servername, ca: TEST_CERT, ALPNProtocols: ['http/1.1'] });
        sock.once('secureConnect', () => resolve(sock));
        sock.once('error', reject);
      });
    const lookup = tableLookup({ 'hooks.example.test': ['127.0.0.1'] });
    const r = await safeRequest(`https://hooks.example.test:${s.port}/tls?q=1`, init({ allowInsecure: true }), { lookup, connect: trustingConnect });
    expect(r).toMatchObject({ ok: true, status: 200, bodyText: 'secure hello', remoteAddress: '127.0.0.1' });
    expect(names).toEqual(['hooks.example.test']);
    expect(s.requests[0]).toMatchObject({ method: 'POST', url: '/tls?q=1' });
    expect(s.requests[0]!.headers.host).toBe(`hooks.example.test:${s.port}`);
  });
});

describe('safeStream', () => {
  const streamInit = (over: Partial<SafeStreamInit> = {}): SafeStreamInit => ({ headers: {}, timeoutMs: 2000, allowInsecure: true, ...over });

  /** Reads a body to its end or its error. */
  async function drain(body: Readable): Promise<{ bytes: Buffer; error: unknown }> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
      return { bytes: Buffer.concat(chunks), error: null };
    } catch (error) {
      return { bytes: Buffer.concat(chunks), error };
    }
  }

  it.each(['https://10.0.0.1/', 'https://169.254.169.254/', 'https://[::ffff:127.0.0.1]/', 'http://127.0.0.1/'])(
    'refuses %s without allowInsecure, before DNS or connecting',
    async (url) => {
      const connect = forbiddenConnect();
      const lookup = forbiddenLookup();
      const r = await safeStream(url, streamInit({ allowInsecure: false }), { connect, lookup });
      expect(r).toMatchObject({ ok: false });
      expect(['forbidden_address', 'insecure_scheme']).toContain((r as { reason: string }).reason);
      expect(connect).not.toHaveBeenCalled();
      expect(lookup).not.toHaveBeenCalled();
    },
  );

  it('hands back the status and headers with the body unread; nothing beyond a small buffer is read ahead', async () => {
    const bytes = Buffer.alloc(4 * 1024 * 1024, 7);
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(bytes.length), 'x-file': 'yes' });
      res.end(bytes);
    });
    const r = await safeStream(`${s.url}/file?x=1`, streamInit({ headers: { Range: 'bytes=0-' } }), {
      connect: loopbackOnlyConnect,
      lookup: forbiddenLookup(),
    });
    if (!r.ok) throw new Error(r.message);
    expect(r).toMatchObject({ status: 200, remoteAddress: '127.0.0.1' });
    expect(r.headers['x-file']).toBe('yes');
    expect(s.requests.at(-1)).toMatchObject({ method: 'GET', url: '/file?x=1' });
    expect(s.requests.at(-1)!.headers.range).toBe('bytes=0-');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.body.readableLength).toBeLessThanOrEqual(64 * 1024);
    const { bytes: got, error } = await drain(r.body);
    expect(error).toBeNull();
    expect(got.equals(bytes)).toBe(true);
  });

  it('hands back a redirect as it is and never requests its target', async () => {
    const target = await startServer((_req, res) => res.end('no'));
    const s = await startServer((_req, res) => res.writeHead(302, { location: `${target.url}/` }).end());
    const r = await safeStream(`${s.url}/`, streamInit(), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: true, status: 302, headers: { location: `${target.url}/` } });
    if (r.ok) r.close();
    expect(target.connections).toBe(0);
  });

  it('a body with no byte for idleTimeoutMs errors with idle_timeout', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(100));
    });
    const r = await safeStream(`${s.url}/`, streamInit({ idleTimeoutMs: 200 }), { connect: loopbackOnlyConnect });
    if (!r.ok) throw new Error(r.message);
    const t0 = Date.now();
    const { bytes, error } = await drain(r.body);
    expect(error).toBeInstanceOf(StreamError);
    expect(error).toMatchObject({ reason: 'idle_timeout' });
    expect(bytes.length).toBe(100);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(180);
  });

  it('time the reader takes is not idle time', async () => {
    const bytes = Buffer.alloc(2 * 1024 * 1024, 1);
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(bytes.length) });
      res.end(bytes);
    });
    const r = await safeStream(`${s.url}/`, streamInit({ idleTimeoutMs: 100 }), { connect: loopbackOnlyConnect });
    if (!r.ok) throw new Error(r.message);
    // Not read at all for three idle periods: the origin is paused, not idle.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { bytes: got, error } = await drain(r.body);
    expect(error).toBeNull();
    expect(got.length).toBe(bytes.length);
  });

  it('deadlineMs errors a trickling body with timeout (total time, not idle time)', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200);
      const iv = setInterval(() => (res.destroyed ? clearInterval(iv) : res.write('x')), 30);
      res.on('close', () => clearInterval(iv));
    });
    const r = await safeStream(`${s.url}/`, streamInit({ idleTimeoutMs: 200, deadlineMs: 300 }), { connect: loopbackOnlyConnect });
    if (!r.ok) throw new Error(r.message);
    const { error } = await drain(r.body);
    expect(error).toMatchObject({ reason: 'timeout' });
  });

  it('no headers within timeoutMs is a timeout failure', async () => {
    const s = await startServer(() => {});
    const r = await safeStream(`${s.url}/`, streamInit({ timeoutMs: 150 }), { connect: loopbackOnlyConnect });
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('a connection closed before the Content-Length arrived errors the body with connection_error', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write('x'.repeat(1000), () => res.destroy());
    });
    const r = await safeStream(`${s.url}/`, streamInit(), { connect: loopbackOnlyConnect });
    if (!r.ok) throw new Error(r.message);
    const { bytes, error } = await drain(r.body);
    expect(error).toMatchObject({ reason: 'connection_error' });
    expect(bytes.length).toBe(1000);
  });

  it('close() closes the connection', async () => {
    let closed = false;
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('x');
      res.on('close', () => {
        closed = true;
      });
    });
    const r = await safeStream(`${s.url}/`, streamInit(), { connect: loopbackOnlyConnect });
    if (!r.ok) throw new Error(r.message);
    r.close();
    r.close();
    await vi.waitFor(() => expect(closed).toBe(true));
  });
});

describe('defaultConnect', () => {
  it('refuses a host name (it only ever connects to checked IPs)', async () => {
    await expect(defaultConnect({ host: 'localhost', port: 1, signal: new AbortController().signal })).rejects.toThrow(/IP address/);
  });
});

describe('checkUrlForCreation', () => {
  const refused: Array<[string, string]> = [
    ['https://127.0.0.1/', 'forbidden_address'],
    ['https://[::1]/', 'forbidden_address'],
    ['https://[::ffff:127.0.0.1]/', 'forbidden_address'],
    ['https://0x7f.1/', 'forbidden_address'],
    ['https://2130706433/', 'forbidden_address'],
    ['https://0.0.0.0/', 'forbidden_address'],
    ['https://10.0.0.1/', 'forbidden_address'],
    ['https://169.254.169.254/latest/meta-data', 'forbidden_address'],
    ['https://private.example.test/', 'forbidden_address'],
    ['https://mixed.example.test/', 'forbidden_address'],
    ['https://missing.example.test/', 'dns_failure'],
    ['http://public.example.test/', 'insecure_scheme'],
    ['https://u:p@public.example.test/', 'invalid_url'],
    ['nonsense', 'invalid_url'],
  ];
  const lookup = tableLookup({
    'private.example.test': ['10.0.0.5'],
    'mixed.example.test': ['8.8.8.8', '10.0.0.5'],
    'public.example.test': ['93.184.216.34', '2606:2800:220:1::1'],
    'loop.example.test': ['127.0.0.1'],
  });

  it.each(refused)('%s → %s', async (url, reason) => {
    const r = await checkUrlForCreation(url, { allowInsecure: false, lookup });
    expect(r).toMatchObject({ ok: false, reason });
    if (!r.ok) expect(r.message).toBeTruthy();
  });

  it('accepts a public https URL', async () => {
    await expect(checkUrlForCreation('https://public.example.test/hooks', { allowInsecure: false, lookup })).resolves.toEqual({ ok: true });
    await expect(checkUrlForCreation('https://8.8.8.8/', { allowInsecure: false, lookup: forbiddenLookup() })).resolves.toEqual({ ok: true });
  });

  it('allowInsecure allows http and loopback, nothing else', async () => {
    const o = { allowInsecure: true, lookup };
    await expect(checkUrlForCreation('http://127.0.0.1:3000/', o)).resolves.toEqual({ ok: true });
    await expect(checkUrlForCreation('http://loop.example.test/', o)).resolves.toEqual({ ok: true });
    await expect(checkUrlForCreation('http://[::1]/', o)).resolves.toEqual({ ok: true });
    await expect(checkUrlForCreation('http://10.0.0.1/', o)).resolves.toMatchObject({ ok: false, reason: 'forbidden_address' });
    await expect(checkUrlForCreation('http://169.254.169.254/', o)).resolves.toMatchObject({ ok: false, reason: 'forbidden_address' });
    await expect(checkUrlForCreation('http://private.example.test/', o)).resolves.toMatchObject({ ok: false, reason: 'forbidden_address' });
    await expect(checkUrlForCreation('http://0.0.0.0/', o)).resolves.toMatchObject({ ok: false, reason: 'forbidden_address' });
  });

  it('a hanging resolver is reported as dns_failure after timeoutMs', async () => {
    const r = await checkUrlForCreation('https://slow.example.test/', { allowInsecure: false, lookup: () => new Promise(() => {}), timeoutMs: 50 });
    expect(r).toMatchObject({ ok: false, reason: 'dns_failure' });
  });
});
