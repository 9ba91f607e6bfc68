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
 *  6. Redirects are never followed: a 3xx is a failure carrying the Location.
 * One deadline (timeoutMs) covers DNS, connect, TLS, request and response body.
 */
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
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
  | 'invalid_url'
  | 'insecure_scheme'
  | 'forbidden_address'
  | 'dns_failure'
  | 'timeout'
  | 'connection_error'
  | 'redirect'
  | 'http_error';

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

export async function safeRequest(rawUrl: string, init: SafeRequestInit, deps: SafeRequestDeps = {}): Promise<SafeResponse | SafeFailure> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const done = (f: StepFailure & { status?: number; location?: string }): SafeFailure => ({ ...f, durationMs: elapsed() });

  const parsed = parseTarget(rawUrl, init.allowInsecure);
  if (!parsed.ok) return done(parsed);
  const { target } = parsed;
  const allowLoopback = init.allowInsecure;
  const lookup = deps.lookup ?? defaultLookup;
  const connect = deps.connect ?? defaultConnect;
  const maxBytes = Math.max(0, init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);

  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DeadlineError());
    }, init.timeoutMs);
  });
  deadline.catch(() => {});
  const timeoutFailure = () => done(fail('timeout', `No answer within ${init.timeoutMs} ms.`));

  let socket: net.Socket | null = null;
  try {
    // 1-2. Resolve once, check every address.
    const checked = await resolveAndCheck(target, lookup, allowLoopback, deadline);
    if (!checked.ok) return done(checked);

    // 3. Connect to a checked address (in lookup order; each one was checked above).
    let lastError: unknown = null;
    let connectedTo: string | null = null;
    for (const ip of checked.addresses) {
      if (!isAllowedAddress(ip, { allowLoopback })) return done(forbidden(ip)); // unreachable; kept next to connect on purpose
      try {
        const pending = connect({
          host: ip,
          port: target.port,
          // SNI and certificate name: the URL's host name (an IP literal host is verified as the IP).
          ...(target.secure ? { tls: target.literal === null ? { servername: target.hostname.replace(/\.$/, '') } : {} } : {}),
          signal: controller.signal,
        });
        // A socket that arrives after the deadline is nobody's: close it.
        pending.then(
          (late) => {
            if (controller.signal.aborted) late.destroy();
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
      return done(fail('connection_error', `Could not connect to ${target.hostname}: ${msg}`));
    }

    // 4. Check the address actually connected to, before sending anything.
    const remote = socket.remoteAddress ? connectableAddress(socket.remoteAddress) : null;
    if (remote === null) return done(fail('connection_error', 'The connection closed before the request was sent.'));
    if (remote !== connectedTo || !isAllowedAddress(remote, { allowLoopback })) return done(forbidden(remote));

    // 5-6. The request over that socket; no redirects.
    const result = await Promise.race([sendOverSocket(socket, target, init, maxBytes, controller.signal), deadline]);
    if (result.kind === 'error') return done(fail('connection_error', `The request failed: ${result.message}`));
    if (result.status >= 300 && result.status < 400) {
      return done({
        ...fail('redirect', `The receiver answered ${result.status} (redirects are not followed).`),
        status: result.status,
        ...(result.headers.location !== undefined ? { location: result.headers.location } : {}),
      });
    }
    return {
      ok: true,
      status: result.status,
      headers: result.headers,
      bodyText: result.bodyText,
      truncated: result.truncated,
      durationMs: elapsed(),
      remoteAddress: remote,
    };
  } catch (err) {
    if (err instanceof DeadlineError) return timeoutFailure();
    return done(fail('connection_error', err instanceof Error ? err.message : String(err)));
  } finally {
    clearTimeout(timer);
    socket?.destroy();
  }
}

type SendResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; bodyText: string; truncated: boolean }
  | { kind: 'error'; message: string };

function sendOverSocket(socket: net.Socket, target: Target, init: SafeRequestInit, maxBytes: number, signal: AbortSignal): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (r: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = v;
    headers.host = target.url.host;
    headers.connection = 'close';
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));

    // No agent: node:http uses exactly the socket handed over here and never resolves or connects itself.
    const req = http.request({
      method: init.method,
      path: `${target.url.pathname}${target.url.search}`,
      headers,
      createConnection: () => socket as unknown as Duplex,
      signal,
    } as http.RequestOptions);
    req.on('error', (err) => settle({ kind: 'error', message: err.message }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const outHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) outHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      if (status >= 300 && status < 400) {
        // Never read a redirect's body, never follow it.
        res.destroy();
        settle({ kind: 'response', status, headers: outHeaders, bodyText: '', truncated: false });
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      const finish = () => {
        settle({
          kind: 'response',
          status,
          headers: outHeaders,
          bodyText: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks, kept)),
          truncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = maxBytes - kept;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          kept += Math.max(room, 0);
          truncated = true;
          finish();
          res.destroy(); // stop reading: nothing beyond the limit is buffered
          return;
        }
        chunks.push(chunk);
        kept += chunk.length;
      });
      res.on('end', finish);
      res.on('error', (err) => settle({ kind: 'error', message: err.message }));
      res.on('close', () => {
        if (!res.complete) settle({ kind: 'error', message: 'the response ended early' });
      });
    });
    req.end(init.body);
  });
}
