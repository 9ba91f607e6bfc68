/**
 * An outbound HTTP(S) request that cannot be pointed at the server's own network (SSRF guard),
 * for webhook delivery and URL imports.
 *
 * How "checked in the same step that connects" holds:
 *  1. The URL host is either an IP literal (any spelling; WHATWG URL normalises the legacy
 *     IPv4 forms) or a name. A name is resolved exactly once, through `lookup`.
 *  2. Every address (the literal, or all resolved ones) must pass the policy, else nothing
 *     is connected at all.
 *  3. The socket is opened by `connect` to that exact checked IP, never to the host name, so
 *     no second resolution (DNS rebinding) can happen. TLS still verifies the certificate
 *     against the original host name (servername).
 *  4. After connecting, `socket.remoteAddress` must equal the checked IP and pass the policy
 *     again, before a single byte of the request is written.
 *  5. node:http writes the request over that socket (`createConnection` returns it); no agent,
 *     so node:http never opens a socket or resolves a name itself.
 *  6. Redirects are never followed here: safeRequest fails a 3xx, carrying the Location;
 *     safeStream hands it back, and a caller that follows it (imports/fetch-source.ts) calls
 *     safeStream again for the next URL, which is checked from step 1.
 * safeRequest (webhooks) reads at most 64 KiB of the answer, within one deadline (timeoutMs) for
 * DNS, connect, TLS, request and body. safeStream (URL imports) streams the body, with a deadline
 * for the headers, an idle time-out while reading and an optional deadline for the whole body.
 * safeRequest is built on safeStream: there is one implementation of the steps above.
 */
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { Readable, type Duplex } from 'node:stream';
import { connectableAddress, isAllowedAddress, parseHostLiteral } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all of its addresses (like dns.promises.lookup with all: true). */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export interface ConnectTarget {
  /** The checked IP address to connect to (never a host name). */
  host: string;
  port: number;
  /** Present for https: TLS options; `servername` is the URL host name used for SNI and certificate checks. */
  tls?: { servername?: string };
  /** Aborted when the overall deadline passes; the connect function should then destroy its socket. */
  signal: AbortSignal;
}

/**
 * Opens a connected socket (TLS handshake done for https). The only way this module ever
 * creates a socket, so tests can replace it.
 */
export type ConnectFn = (target: ConnectTarget) => Promise<net.Socket>;

export type SafeFailureReason =
  'invalid_url' | 'insecure_scheme' | 'forbidden_address' | 'dns_failure' | 'timeout' | 'connection_error' | 'redirect' | 'http_error';

export interface SafeFailure {
  ok: false;
  reason: SafeFailureReason;
  message: string;
  durationMs: number;
  /** For 'redirect' (and an HTTP status known at failure time). */
  status?: number;
  location?: string;
}

export interface SafeResponse {
  ok: true;
  status: number;
  headers: Record<string, string>;
  /** The body decoded as UTF-8, at most maxResponseBytes of it. */
  bodyText: string;
  /** True when the body was longer than maxResponseBytes and was cut. */
  truncated: boolean;
  durationMs: number;
  /** The IP address the request was actually sent to. */
  remoteAddress: string;
}

export interface SafeRequestInit {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Total time for DNS + connect + TLS + request + response. */
  timeoutMs: number;
  /** The WEBHOOKS_ALLOW_INSECURE development setting: allows http and loopback receivers, nothing else. */
  allowInsecure: boolean;
  /** Response body bytes kept; the rest is discarded unread. Default 64 KiB. */
  maxResponseBytes?: number;
}

export interface SafeRequestDeps {
  lookup?: LookupFn;
  connect?: ConnectFn;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export const defaultLookup: LookupFn = async (hostname) => {
  const res = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return res.map((r) => ({ address: r.address, family: r.family }));
};

/** net.connect / tls.connect to an IP address (no DNS), resolved once connected (and TLS verified). */
export const defaultConnect: ConnectFn = (target) =>
  new Promise<net.Socket>((resolve, reject) => {
    if (net.isIP(target.host) === 0) {
      reject(new Error('connect target must be an IP address'));
      return;
    }
    if (target.signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const refuseLookup = (): never => {
      throw new Error('no DNS lookups on an already checked address');
    };
    const socket: net.Socket = target.tls
      ? tls.connect({
          host: target.host,
          port: target.port,
          // SNI must not be an IP address; certificate checks then use host (the IP).
          ...(target.tls.servername && net.isIP(target.tls.servername) === 0 ? { servername: target.tls.servername } : {}),
          ALPNProtocols: ['http/1.1'],
          lookup: refuseLookup,
        })
      : net.connect({ host: target.host, port: target.port, lookup: refuseLookup });
    const readyEvent = target.tls ? 'secureConnect' : 'connect';
    const onAbort = () => {
      socket.destroy();
      reject(new Error('aborted'));
    };
    const onError = (err: Error) => {
      target.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(err);
    };
    target.signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once(readyEvent, () => {
      target.signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      resolve(socket);
    });
  });

// ---------------------------------------------------------------------------------------------
// Shared steps

interface Target {
  url: URL;
  secure: boolean;
  hostname: string;
  port: number;
  /** Set when the host is an IP literal: no DNS. */
  literal: string | null;
}

type StepFailure = { ok: false; reason: SafeFailureReason; message: string };

function fail(reason: SafeFailureReason, message: string): StepFailure {
  return { ok: false, reason, message };
}

function parseTarget(rawUrl: string, allowInsecure: boolean): { ok: true; target: Target } | StepFailure {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return fail('invalid_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('invalid_url', 'The URL must use https.');
  if (url.protocol === 'http:' && !allowInsecure) return fail('insecure_scheme', 'The URL must use https.');
  if (url.username || url.password) return fail('invalid_url', 'The URL must not contain credentials.');
  if (!url.hostname) return fail('invalid_url', 'The URL has no host.');
  const secure = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return fail('invalid_url', 'The URL port is not valid.');
  const lit = parseHostLiteral(url.hostname);
  // WHATWG URL already normalised numeric IPv4 spellings; a host whose last label still looks
  // numeric is not something to hand to a resolver (getaddrinfo may read it as an address).
  const lastLabel = url.hostname.replace(/\.$/, '').split('.').pop() ?? '';
  if (!lit && /^(?:[0-9]+|0x[0-9a-f]*)$/i.test(lastLabel)) return fail('invalid_url', 'The URL host is not valid.');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { ok: true, target: { url, secure, hostname, port, literal: lit?.address ?? null } };
}

function forbidden(ip: string): StepFailure {
  return fail('forbidden_address', `The address ${ip} is not allowed (private, loopback, link-local or reserved).`);
}

/** Resolves (once) and checks every address; returns the checked addresses in lookup order. */
async function resolveAndCheck(
  target: Target,
  lookup: LookupFn,
  allowLoopback: boolean,
  deadline: Promise<never>,
): Promise<{ ok: true; addresses: string[] } | StepFailure> {
  if (target.literal !== null) {
    const ip = connectableAddress(target.literal);
    return ip !== null && isAllowedAddress(ip, { allowLoopback }) ? { ok: true, addresses: [ip] } : forbidden(target.literal);
  }
  let resolved: ResolvedAddress[];
  try {
    resolved = await Promise.race([lookup(target.hostname), deadline]);
  } catch (err) {
    if (err instanceof DeadlineError) throw err;
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    return fail('dns_failure', `The host name ${target.hostname} could not be resolved${code ? ` (${code})` : ''}.`);
  }
  if (!Array.isArray(resolved) || resolved.length === 0) return fail('dns_failure', `The host name ${target.hostname} has no addresses.`);
  const addresses: string[] = [];
  for (const r of resolved) {
    const canon = connectableAddress(String(r?.address ?? ''));
    // Refuse if ANY address is forbidden: stricter, and no choice of address to get wrong.
    if (canon === null || !isAllowedAddress(canon, { allowLoopback })) {
      return fail('forbidden_address', `The host name ${target.hostname} resolves to a forbidden address (${String(r?.address)}).`);
    }
    if (!addresses.includes(canon)) addresses.push(canon);
  }
  return { ok: true, addresses };
}

class DeadlineError extends Error {
  constructor() {
    super('deadline');
  }
}

// ---------------------------------------------------------------------------------------------
// Creation-time check

export interface CheckUrlOptions {
  allowInsecure: boolean;
  lookup?: LookupFn;
  /** Time allowed for DNS. Default 5 s. */
  timeoutMs?: number;
}

/**
 * The same checks as safeRequest, without connecting: scheme, credentials, literal address and
 * every resolved address. For a clear error when a webhook (or import) URL is created; delivery
 * checks again, in the step that connects.
 */
export async function checkUrlForCreation(
  rawUrl: string,
  opts: CheckUrlOptions,
): Promise<{ ok: true } | { ok: false; reason: SafeFailureReason; message: string }> {
  const parsed = parseTarget(rawUrl, opts.allowInsecure);
  if (!parsed.ok) return parsed;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError()), opts.timeoutMs ?? 5000);
  });
  deadline.catch(() => {});
  try {
    const checked = await resolveAndCheck(parsed.target, opts.lookup ?? defaultLookup, opts.allowInsecure, deadline);
    return checked.ok ? { ok: true } : checked;
  } catch (err) {
    if (err instanceof DeadlineError) return fail('dns_failure', `Resolving ${parsed.target.hostname} timed out.`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// The request

/**
 * Steps 1 to 4: resolves once, checks every address, connects to a checked one and checks the
 * address actually connected to. The one way this module opens a connection, for a request whose
 * answer is read whole (safeRequest) or streamed (safeStream).
 */
async function connectChecked(
  target: Target,
  opts: { lookup: LookupFn; connect: ConnectFn; allowLoopback: boolean; signal: AbortSignal; deadline: Promise<never> },
): Promise<{ ok: true; socket: net.Socket; remote: string } | StepFailure> {
  const { lookup, connect, allowLoopback, deadline, signal } = opts;
  let socket: net.Socket | null = null;
  // 1-2. Resolve once, check every address.
  const checked = await resolveAndCheck(target, lookup, allowLoopback, deadline);
  if (!checked.ok) return checked;

  // 3. Connect to a checked address (in lookup order; each one was checked above).
  let lastError: unknown = null;
  let connectedTo: string | null = null;
  for (const ip of checked.addresses) {
    if (!isAllowedAddress(ip, { allowLoopback })) return forbidden(ip); // unreachable; kept next to connect on purpose
    try {
      const pending = connect({
        host: ip,
        port: target.port,
        // SNI and certificate name: the URL's host name (an IP literal host is verified as the IP).
        ...(target.secure ? { tls: target.literal === null ? { servername: target.hostname.replace(/\.$/, '') } : {} } : {}),
        signal,
      });
      // A socket that arrives after the deadline is nobody's: close it.
      pending.then(
        (late) => {
          if (signal.aborted) late.destroy();
        },
        () => {},
      );
      const s = await Promise.race([pending, deadline]);
      // Until node:http attaches its own listener, a socket error must not become an uncaught 'error' event.
      s.on('error', () => {});
      socket = s;
      connectedTo = ip;
      break;
    } catch (err) {
      if (err instanceof DeadlineError) throw err;
      lastError = err;
    }
  }
  if (!socket || connectedTo === null) {
    const msg = lastError instanceof Error ? lastError.message : 'unknown error';
    return fail('connection_error', `Could not connect to ${target.hostname}: ${msg}`);
  }

  // 4. Check the address actually connected to, before sending anything.
  const remote = socket.remoteAddress ? connectableAddress(socket.remoteAddress) : null;
  if (remote === null) {
    socket.destroy();
    return fail('connection_error', 'The connection closed before the request was sent.');
  }
  if (remote !== connectedTo || !isAllowedAddress(remote, { allowLoopback })) {
    socket.destroy();
    return forbidden(remote);
  }
  return { ok: true, socket, remote };
}

export async function safeRequest(rawUrl: string, init: SafeRequestInit, deps: SafeRequestDeps = {}): Promise<SafeResponse | SafeFailure> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const done = (f: StepFailure & { status?: number; location?: string }): SafeFailure => ({ ...f, durationMs: elapsed() });
  const maxBytes = Math.max(0, init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);

  // One deadline for everything: the headers deadline and the body deadline are the same instant.
  const opened = await safeStream(
    rawUrl,
    {
      method: init.method,
      headers: init.headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
      timeoutMs: init.timeoutMs,
      deadlineMs: init.timeoutMs,
      allowInsecure: init.allowInsecure,
    },
    deps,
  );
  if (!opened.ok) return { ...opened, durationMs: elapsed() };
  if (opened.status >= 300 && opened.status < 400) {
    // Never read a redirect's body, never follow it.
    opened.close();
    return done({
      ...fail('redirect', `The receiver answered ${opened.status} (redirects are not followed).`),
      status: opened.status,
      ...(opened.headers.location !== undefined ? { location: opened.headers.location } : {}),
    });
  }
  const read = await readCapped(opened.body, maxBytes);
  if (read.kind === 'error') {
    if (read.error instanceof StreamError && read.error.reason === 'timeout') return done(fail('timeout', `No answer within ${init.timeoutMs} ms.`));
    return done(fail('connection_error', `The request failed: ${read.error.message}`));
  }
  return {
    ok: true,
    status: opened.status,
    headers: opened.headers,
    bodyText: new TextDecoder('utf-8', { fatal: false }).decode(read.bytes),
    truncated: read.truncated,
    durationMs: elapsed(),
    remoteAddress: opened.remoteAddress,
  };
}

/** Reads at most maxBytes of a body; stops reading (and closes it) past that, so nothing beyond the limit is buffered. */
function readCapped(body: Readable, maxBytes: number): Promise<{ kind: 'body'; bytes: Buffer; truncated: boolean } | { kind: 'error'; error: Error }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ kind: 'body', bytes: Buffer.concat(chunks, kept), truncated });
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - kept;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        kept += Math.max(room, 0);
        settle(true);
        body.destroy();
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    body.on('end', () => settle(false));
    body.on('error', (error) => {
      if (settled) return;
      settled = true;
      resolve({ kind: 'error', error });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// A streamed answer (URL imports, and safeRequest underneath)

export interface SafeStreamInit {
  /** Default GET. */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The headers deadline: DNS, connect, TLS, sending the request and the answer's status and headers. Past it: failure `timeout`. */
  timeoutMs: number;
  /**
   * While the body is read: no byte for this long, while the reader is waiting for one, errors the
   * body (StreamError `idle_timeout`). Time the reader itself takes (backpressure: the origin is
   * paused) does not count. Off when absent.
   */
  idleTimeoutMs?: number;
  /**
   * Everything, from this call to the body's last byte: past it the body errors (StreamError
   * `timeout`), or the call fails `timeout` if the headers had not come yet. Off when absent: a
   * caller without it bounds the whole transfer itself.
   */
  deadlineMs?: number;
  /** http and loopback origins, for development and tests; never other private addresses. */
  allowInsecure: boolean;
}

export interface SafeStreamResponse {
  ok: true;
  status: number;
  headers: Record<string, string>;
  /**
   * The answer's body, not read yet (the origin is paused until it is). Ends when the message
   * ends; errors with a StreamError: `idle_timeout`, `timeout`, `connection_error` (including a
   * connection closed before the Content-Length or the last chunk arrived).
   */
  body: Readable;
  /** The IP address the request was actually sent to. */
  remoteAddress: string;
  /** Time until the status and headers arrived. */
  durationMs: number;
  /** Stops reading and closes the connection (the body is destroyed without an error). Safe to call twice. */
  close(): void;
}

/** An error of a streamed body, with the reason callers classify it by. */
export class StreamError extends Error {
  constructor(
    readonly reason: 'idle_timeout' | 'timeout' | 'connection_error',
    message: string,
  ) {
    super(message);
    this.name = 'StreamError';
  }
}

/** Body bytes buffered ahead of the reader before the origin is paused. */
const STREAM_HIGH_WATER_MARK = 64 * 1024;

/**
 * A request whose answer is streamed rather than read: the same connect-time checks (steps 1-5),
 * then the status and headers, and the body as a stream the caller reads at its own pace
 * (backpressure reaches the origin through TCP). Redirects are not followed: a 3xx is returned as
 * it is and the caller decides, checking the next URL the same way by calling this again.
 */
export async function safeStream(rawUrl: string, init: SafeStreamInit, deps: SafeRequestDeps = {}): Promise<SafeStreamResponse | SafeFailure> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const done = (f: StepFailure): SafeFailure => ({ ...f, durationMs: elapsed() });
  const parsed = parseTarget(rawUrl, init.allowInsecure);
  if (!parsed.ok) return done(parsed);
  const { target } = parsed;
  const headersMs = Math.max(0, Math.min(init.timeoutMs, init.deadlineMs ?? Infinity));

  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DeadlineError());
    }, headersMs);
  });
  deadline.catch(() => {});
  let socket: net.Socket | null = null;
  let handedOver = false;
  try {
    const connected = await connectChecked(target, {
      lookup: deps.lookup ?? defaultLookup,
      connect: deps.connect ?? defaultConnect,
      allowLoopback: init.allowInsecure,
      signal: controller.signal,
      deadline,
    });
    if (!connected.ok) return done(connected);
    socket = connected.socket;

    // 5. The request over that socket.
    const sent = await Promise.race([sendOverSocket(socket, target, init, controller.signal), deadline]);
    if (sent instanceof Error) return done(fail('connection_error', `The request failed: ${sent.message}`));
    clearTimeout(timer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(sent.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const remainingMs = init.deadlineMs === undefined ? undefined : Math.max(0, init.deadlineMs - (performance.now() - started));
    const body = streamBody(sent, socket, { idleTimeoutMs: init.idleTimeoutMs, remainingMs, deadlineMs: init.deadlineMs });
    handedOver = true;
    return {
      ok: true,
      status: sent.statusCode ?? 0,
      headers,
      body,
      remoteAddress: connected.remote,
      durationMs: elapsed(),
      close: () => body.destroy(),
    };
  } catch (err) {
    if (err instanceof DeadlineError) return done(fail('timeout', `No answer within ${headersMs} ms.`));
    return done(fail('connection_error', err instanceof Error ? err.message : String(err)));
  } finally {
    clearTimeout(timer);
    if (!handedOver) socket?.destroy();
  }
}

/** Sends the request; resolves with the answer once its status and headers are in, or with the error. */
function sendOverSocket(socket: net.Socket, target: Target, init: SafeStreamInit, signal: AbortSignal): Promise<http.IncomingMessage | Error> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = v;
    headers.host = target.url.host;
    headers.connection = 'close';
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    // No agent: node:http uses exactly the socket handed over here and never resolves or connects itself.
    const req = http.request({
      method: init.method ?? 'GET',
      path: `${target.url.pathname}${target.url.search}`,
      headers,
      createConnection: () => socket as unknown as Duplex,
      signal,
    } as http.RequestOptions);
    // Stays attached after the answer: a late request error must not be an uncaught 'error' event.
    req.on('error', (err) => resolve(err));
    req.on('response', resolve);
    req.end(init.body);
  });
}

/**
 * The body handed to the caller: the answer's bytes, paused while the caller does not read (so the
 * idle timer only runs while the caller waits for the origin), with the deadline and a clear error
 * for a connection that ends before the message does.
 */
function streamBody(
  res: http.IncomingMessage,
  socket: net.Socket,
  opts: { idleTimeoutMs: number | undefined; remainingMs: number | undefined; deadlineMs: number | undefined },
): Readable {
  let idleTimer: NodeJS.Timeout | undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;
  let received = false;
  const stopIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
  };
  const startIdle = () => {
    const ms = opts.idleTimeoutMs;
    if (ms === undefined || idleTimer !== undefined || received || body.destroyed) return;
    idleTimer = setTimeout(() => body.destroy(new StreamError('idle_timeout', `The server sent nothing for ${formatMs(ms)}.`)), ms);
  };
  const body = new Readable({
    highWaterMark: STREAM_HIGH_WATER_MARK,
    read() {
      res.resume();
      startIdle();
    },
    destroy(err, callback) {
      stopIdle();
      clearTimeout(deadlineTimer);
      res.destroy();
      socket.destroy();
      callback(err);
    },
  });
  res.on('data', (chunk: Buffer) => {
    stopIdle();
    if (body.push(chunk)) startIdle();
    else res.pause();
  });
  // Nothing flows until the caller reads.
  res.pause();
  res.on('end', () => {
    received = true;
    stopIdle();
    clearTimeout(deadlineTimer);
    body.push(null);
  });
  const cut = () => body.destroy(new StreamError('connection_error', 'The connection closed before the whole answer arrived.'));
  res.on('error', cut);
  res.on('close', () => {
    if (!res.complete) cut();
  });
  if (opts.remainingMs !== undefined) {
    const total = opts.deadlineMs ?? opts.remainingMs;
    deadlineTimer = setTimeout(() => body.destroy(new StreamError('timeout', `The answer did not arrive within ${formatMs(total)}.`)), opts.remainingMs);
  }
  return body;
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
