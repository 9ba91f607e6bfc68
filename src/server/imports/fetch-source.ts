import http from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { sanitizeFileName } from '../files/names.js';
import { safeStream, StreamError, type SafeFailure, type SafeRequestDeps, type SafeStreamResponse } from '../net/safe-request.js';

/**
 * Opening a URL import's origin: a GET through the SSRF-safe client (safeStream), so every hop's
 * addresses are checked in the step that connects. Redirects are followed here, by hand, so each
 * next URL goes through the same checks (a redirect is just another safeStream call). A fetch may
 * resume from a byte offset, and the body is held to the size it must have WHILE it streams: the
 * caller never stores more than the plan allows, and learns of a short body at its end.
 *
 * Failures are values, never throws; errors of the body stream are ImportSourceErrors carrying the
 * same reasons. The caller (the importer) decides which reasons are worth another try.
 */

/**
 * Why the file could not be fetched.
 * - `invalid_url`: not an http(s) URL, credentials in it, a bad port; or a redirect to such a URL.
 * - `insecure_scheme`: http (the URL, or a redirect from https) where only https is allowed.
 * - `forbidden_address`: the host is, or resolves to, a private, loopback, link-local or reserved address. Nothing was connected.
 * - `dns_failure`: the host name could not be resolved.
 * - `connection_error`: could not connect, TLS failed, or the connection dropped; mid-body this includes a body cut short of its
 *   Content-Length (or last chunk), which is what a resume is for.
 * - `timeout`: no status and headers within the headers time-out, or the whole fetch past `deadlineMs`.
 * - `idle_timeout`: (body only) the origin sent nothing for `idleTimeoutMs` while it was being read.
 * - `too_many_redirects`: more than 5 redirects.
 * - `http_error`: the final answer is not 2xx (a 4xx, or a 3xx that is not a redirect); `status` is set.
 * - `server_error`: the final answer is 5xx, 408 or 429, which may pass; `status` is set.
 * - `invalid_response`: a redirect without Location, a 206 for another range than asked, an unreadable Content-Range.
 *   (A resume answered 200, 416, or 206 with another validator is not a failure: the file is fetched whole, `restarted`.)
 * - `too_large`: the file is (or turns out, while streaming) larger than `maxBytes`.
 * - `longer_than_declared`: the origin announces, or sends, more bytes than declared (or than its own Content-Length).
 * - `shorter_than_declared`: the origin announces a smaller size than declared, or the body ends cleanly before the declared size.
 */
export type ImportSourceReason =
  | 'invalid_url'
  | 'insecure_scheme'
  | 'forbidden_address'
  | 'dns_failure'
  | 'connection_error'
  | 'timeout'
  | 'idle_timeout'
  | 'too_many_redirects'
  | 'http_error'
  | 'server_error'
  | 'invalid_response'
  | 'too_large'
  | 'longer_than_declared'
  | 'shorter_than_declared';

export interface ImportSourceFailure {
  ok: false;
  reason: ImportSourceReason;
  /** Fit to show to the person who asked for the import. */
  message: string;
  /** The HTTP status, for `http_error` and `server_error`. */
  status?: number;
  /** The URL being fetched when it failed (after redirects). */
  url?: string;
}

/** The error a body stream fails with (and `finished()` rejects with). */
export class ImportSourceError extends Error {
  constructor(
    readonly reason: ImportSourceReason,
    message: string,
  ) {
    super(message);
    this.name = 'ImportSourceError';
  }
}

export interface ImportSource {
  ok: true;
  /** 200 or 206 (another 2xx is taken as a whole file). */
  status: number;
  /** The URL the body comes from, after redirects. */
  url: string;
  /** How many redirects were followed. */
  redirects: number;
  /** The IP address the body comes from. */
  remoteAddress: string;
  /**
   * The body from byte `offset` on, held to its size: errors (ImportSourceError) as soon as it runs past
   * `maxBytes` or the expected size, or at its end when short of the expected size. Read it to its end,
   * or call close().
   */
  body: Readable;
  /** Where the body starts in the file: the resume offset when resumed, else 0. */
  offset: number;
  /** True when the origin answered the ranged request with the part asked for (206). */
  resumed: boolean;
  /** True when a resume was asked for but the origin sent the whole file (no range support, or the file changed): start over. */
  restarted: boolean;
  /** The whole file's size as the origin gives it (Content-Length of a 200, the total of a 206's Content-Range); null when it does not say. */
  totalSize: number | null;
  /** The bytes this body should hold (Content-Length); null when not given. */
  contentLength: number | null;
  /** `Accept-Ranges: bytes` (or a 206), so a later fetch may resume. */
  acceptsRanges: boolean;
  /** A strong ETag, else Last-Modified: what a resumed fetch sends as If-Range. Null when neither. */
  validator: string | null;
  /** Content-Type without parameters, lower case, when it is a plain type/subtype. */
  contentType: string | null;
  /**
   * The file's name as Content-Disposition gives it, sanitised; null when it gives none. Not the final URL's path:
   * after a redirect that is often a CDN's hash, worse than the name the caller's own URL gave.
   */
  suggestedName: string | null;
  /**
   * Resolves once the origin's message has ended with a body of the right length, rejects (ImportSourceError)
   * otherwise. Call it after reading the body up to its expected end; it does not read the body itself.
   */
  finished(): Promise<void>;
  /** Stops reading and closes the connection. Safe to call at any time, and twice. */
  close(): void;
}

export interface ImportSourceOptions {
  /** The IMPORTS_ALLOW_INSECURE development setting: http and loopback origins, never other private addresses. */
  allowInsecure: boolean;
  /** The most bytes the file may have (the plan's ceiling). */
  maxBytes: number;
  /** The size the person declared: a file of any other size fails (before the body when the origin announces its size). */
  expectedSize?: number | undefined;
  /** Resume: ask for the bytes from `offset` on, if they are still those `validator` (from an earlier ImportSource) named. */
  from?: { offset: number; validator: string | null } | undefined;
  /** Time for DNS, connect, TLS and the answer's headers, per hop. Default 30 s. */
  headersTimeoutMs?: number;
  /** The origin sending nothing this long while the body is read fails it (`idle_timeout`). Default 60 s. */
  idleTimeoutMs?: number;
  /** The whole fetch, redirects and body included. Default: none (the caller bounds it). */
  deadlineMs?: number;
  /** Sent as User-Agent. */
  userAgent?: string;
}

export const MAX_IMPORT_REDIRECTS = 5;
const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAYBE_PASSING_STATUSES: ReadonlySet<number> = new Set([408, 429]);
const PLAIN_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export async function openImportSource(rawUrl: string, options: ImportSourceOptions, deps: SafeRequestDeps = {}): Promise<ImportSource | ImportSourceFailure> {
  const startedAt = Date.now();
  const { maxBytes, expectedSize } = options;
  if (expectedSize !== undefined && expectedSize > maxBytes) {
    return failure('too_large', `The file is declared as ${expectedSize} bytes, more than the ${maxBytes} bytes allowed here.`);
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return failure('invalid_url', 'The import URL is not valid.');
  }
  url.hash = '';
  // A resume from 0 is just a fetch.
  let from = options.from && options.from.offset > 0 ? options.from : undefined;
  let restarted = false;
  let redirects = 0;

  for (;;) {
    const remainingMs = options.deadlineMs === undefined ? undefined : options.deadlineMs - (Date.now() - startedAt);
    if (remainingMs !== undefined && remainingMs <= 0) {
      return failure('timeout', `The server at ${url.host} did not answer within ${formatMs(options.deadlineMs!)}.`, { url: url.href });
    }
    const opened = await safeStream(
      url.href,
      {
        method: 'GET',
        headers: requestHeaders(options, from),
        timeoutMs: Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, remainingMs ?? Infinity),
        idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        ...(remainingMs !== undefined ? { deadlineMs: remainingMs } : {}),
        allowInsecure: options.allowInsecure,
      },
      deps,
    );
    if (!opened.ok) return hopFailure(opened, url, redirects);
    const { status, headers } = opened;

    if (REDIRECT_STATUSES.has(status)) {
      opened.close();
      const location = headers.location;
      if (location === undefined || location === '') {
        return failure('invalid_response', `The server at ${url.host} answered ${statusText(status)} without saying where to.`, { url: url.href });
      }
      if (redirects >= MAX_IMPORT_REDIRECTS) {
        return failure('too_many_redirects', `The server at ${url.host} redirected more than ${MAX_IMPORT_REDIRECTS} times.`, { url: url.href });
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return failure('invalid_url', `The server at ${url.host} redirected to an address that is not valid.`, { url: url.href });
      }
      if (next.protocol === 'http:' && !options.allowInsecure) {
        return failure('insecure_scheme', `The server at ${url.host} redirected to a plain http address; only https is allowed.`, { url: next.href });
      }
      next.hash = '';
      url = next;
      redirects++;
      continue;
    }

    if (status === 416 && from) {
      // The file no longer reaches the offset (it changed): fetch it whole.
      opened.close();
      from = undefined;
      restarted = true;
      continue;
    }

    if (status < 200 || status > 299) {
      opened.close();
      const reason = status >= 500 || MAYBE_PASSING_STATUSES.has(status) ? 'server_error' : 'http_error';
      return failure(reason, `The server at ${url.host} answered ${statusText(status)}.`, { status, url: url.href });
    }

    let offset = 0;
    let totalSize: number | null = null;
    const contentLength = parseLength(headers['content-length']);
    if (status === 206) {
      if (!from) {
        opened.close();
        return failure('invalid_response', `The server at ${url.host} sent part of the file when the whole file was asked for.`, { url: url.href });
      }
      const range = parseContentRange(headers['content-range']);
      const expectedEnd = range?.total ?? null;
      if (
        !range ||
        range.start !== from.offset ||
        (expectedEnd !== null && range.end !== expectedEnd - 1) ||
        (contentLength !== null && contentLength !== range.end - range.start + 1)
      ) {
        opened.close();
        return failure('invalid_response', `The server at ${url.host} sent another part of the file than the one asked for.`, { url: url.href });
      }
      if (changedSince(from.validator, headers)) {
        // It ignored If-Range but the file is not the one we have the start of: fetch it whole instead.
        opened.close();
        from = undefined;
        restarted = true;
        continue;
      }
      offset = range.start;
      totalSize = range.total;
    } else {
      if (from) restarted = true;
      totalSize = contentLength;
    }

    const refused = checkAnnouncedSize(totalSize, expectedSize, maxBytes, url.host);
    if (refused) {
      opened.close();
      return { ...refused, url: url.href };
    }

    const guarded = guardBody(opened, {
      offset,
      expectedEnd: expectedSize ?? totalSize,
      endIsDeclared: expectedSize !== undefined,
      maxBytes,
      host: url.host,
    });
    const etag = headers.etag;
    return {
      ok: true,
      status,
      url: url.href,
      redirects,
      remoteAddress: opened.remoteAddress,
      body: guarded.body,
      offset,
      resumed: status === 206,
      restarted,
      totalSize,
      contentLength,
      acceptsRanges: status === 206 || /(^|,)\s*bytes\s*(,|$)/i.test(headers['accept-ranges'] ?? ''),
      validator: etag !== undefined && isStrongEtag(etag) ? etag : (headers['last-modified'] ?? null),
      contentType: plainType(headers['content-type']),
      suggestedName: nameFromContentDisposition(headers['content-disposition']),
      finished: () => guarded.finished,
      close: () => guarded.body.destroy(),
    };
  }
}

function failure(reason: ImportSourceReason, message: string, extra: { status?: number; url?: string } = {}): ImportSourceFailure {
  return { ok: false, reason, message, ...extra };
}

/** A safeStream failure, in the words of an import; a hop after a redirect says so. */
function hopFailure(f: SafeFailure, url: URL, redirects: number): ImportSourceFailure {
  const where = redirects > 0 ? `${url.host} (after ${redirects} redirect${redirects > 1 ? 's' : ''})` : url.host;
  switch (f.reason) {
    case 'invalid_url':
      return failure('invalid_url', redirects > 0 ? `A redirect led to an address that cannot be fetched: ${f.message}` : f.message, { url: url.href });
    case 'insecure_scheme':
      return failure('insecure_scheme', 'The import URL must use https.', { url: url.href });
    case 'forbidden_address':
      return failure('forbidden_address', redirects > 0 ? `A redirect was refused: ${f.message}` : f.message, { url: url.href });
    case 'dns_failure':
      return failure('dns_failure', f.message, { url: url.href });
    case 'timeout':
      return failure('timeout', `The server at ${where} did not answer in time.`, { url: url.href });
    default:
      return failure('connection_error', `Could not fetch the file from ${where}: ${f.message}`, { url: url.href });
  }
}

function requestHeaders(options: ImportSourceOptions, from: ImportSourceOptions['from']): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent ?? 'parcel-post URL import',
    accept: '*/*',
    // The file's bytes as stored at the origin: never a compressed rendition of them.
    'accept-encoding': 'identity',
  };
  if (from) {
    headers.range = `bytes=${from.offset}-`;
    // If-Range must not carry a weak ETag (RFC 9110 13.1.5); a weak one is never reported as a validator anyway.
    if (from.validator && !from.validator.startsWith('W/')) headers['if-range'] = from.validator;
  }
  return headers;
}

/** A 206 whose own validator differs from the one the resume asked for: its bytes are of another file. */
function changedSince(validator: string | null, headers: Record<string, string>): boolean {
  if (!validator) return false;
  if (validator.startsWith('"')) return headers.etag !== undefined && headers.etag !== validator;
  return headers['last-modified'] !== undefined && headers['last-modified'] !== validator;
}

function checkAnnouncedSize(total: number | null, declared: number | undefined, maxBytes: number, host: string): ImportSourceFailure | null {
  if (total === null) return null;
  if (total > maxBytes) return failure('too_large', `The file at ${host} is ${total} bytes, more than the ${maxBytes} bytes allowed here.`);
  if (declared !== undefined && total !== declared) {
    return failure(
      total > declared ? 'longer_than_declared' : 'shorter_than_declared',
      `The server at ${host} says the file is ${total} bytes, not the ${declared} bytes declared.`,
    );
  }
  return null;
}

/**
 * Pipes the origin's body through a length check: an error as soon as a byte past the expected end
 * or past maxBytes arrives (before the caller reads it), and at the end when the body is short.
 */
function guardBody(
  opened: SafeStreamResponse,
  limits: { offset: number; expectedEnd: number | null; endIsDeclared: boolean; maxBytes: number; host: string },
): { body: Transform; finished: Promise<void> } {
  const { expectedEnd, maxBytes, host } = limits;
  let position = limits.offset;
  let verdict: { resolve(): void; reject(err: Error): void } | null = null;
  const finished = new Promise<void>((resolve, reject) => {
    verdict = { resolve, reject };
  });
  // Nobody may ever ask: an unobserved rejection must not take the process down.
  finished.catch(() => {});
  const settle = (err: Error | null) => {
    if (!verdict) return;
    const v = verdict;
    verdict = null;
    if (err) v.reject(err);
    else v.resolve();
  };
  const expectedWords = limits.endIsDeclared ? 'declared' : 'announced by the server';

  const guard = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const next = position + chunk.length;
      if (next > maxBytes) {
        callback(new ImportSourceError('too_large', `The file at ${host} is larger than the ${maxBytes} bytes allowed here.`));
        return;
      }
      if (expectedEnd !== null && next > expectedEnd) {
        callback(new ImportSourceError('longer_than_declared', `The server at ${host} sent more than the ${expectedEnd} bytes ${expectedWords}.`));
        return;
      }
      position = next;
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (expectedEnd !== null && position < expectedEnd) {
        callback(new ImportSourceError('shorter_than_declared', `The server at ${host} sent ${position} of the ${expectedEnd} bytes ${expectedWords}.`));
        return;
      }
      settle(null);
      callback();
    },
    destroy(err: Error | null, callback: (error: Error | null) => void) {
      settle(err ?? new ImportSourceError('connection_error', `The download from ${host} was stopped before its end.`));
      opened.close();
      callback(err);
    },
  });
  guard.on('error', () => {
    // Reported through `finished` and to whoever reads the body; this listener only keeps an unread body's error from being uncaught.
  });
  opened.body.on('error', (err: Error) => guard.destroy(fromStreamError(err, host, position, expectedEnd)));
  opened.body.pipe(guard);
  return { body: guard, finished };
}

function fromStreamError(err: Error, host: string, position: number, expectedEnd: number | null): ImportSourceError {
  if (err instanceof ImportSourceError) return err;
  if (err instanceof StreamError) {
    if (err.reason === 'idle_timeout') return new ImportSourceError('idle_timeout', `The server at ${host} stopped sending (${err.message})`);
    if (err.reason === 'timeout') return new ImportSourceError('timeout', `The download from ${host} took too long (${err.message})`);
  }
  const of = expectedEnd !== null ? ` of ${expectedEnd}` : '';
  return new ImportSourceError('connection_error', `The connection to ${host} closed after ${position}${of} bytes.`);
}

// ---------------------------------------------------------------------------------------------
// Headers

function statusText(status: number): string {
  const text = http.STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function parseLength(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d{1,16}\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** `bytes <start>-<end>/<total or *>`. */
function parseContentRange(value: string | undefined): { start: number; end: number; total: number | null } | null {
  const m = /^\s*bytes\s+(\d{1,16})-(\d{1,16})\/(\d{1,16}|\*)\s*$/i.exec(value ?? '');
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  const total = m[3] === '*' ? null : Number(m[3]);
  if (end < start || (total !== null && end >= total)) return null;
  return { start, end, total };
}

function isStrongEtag(etag: string): boolean {
  return /^"[^"]*"$/.test(etag.trim());
}

function plainType(value: string | undefined): string | null {
  const type = (value ?? '').split(';')[0]!.trim().toLowerCase();
  return PLAIN_TYPE.test(type) ? type : null;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

// ---------------------------------------------------------------------------------------------
// Names

/** The file name a Content-Disposition header gives (`filename*` first, RFC 8187; then `filename`), sanitised; null if none. */
export function nameFromContentDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const params = new Map<string, string>();
  // Parameters after the disposition type; a quoted value may hold ';'.
  const param = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of header.matchAll(param)) {
    const key = m[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, m[2]!.trim());
  }
  const extended = params.get('filename*');
  if (extended !== undefined) {
    const decoded = decodeExtendedValue(unquote(extended));
    const name = decoded === null ? null : sanitizeFileName(decoded);
    if (name) return name;
  }
  const plain = params.get('filename');
  if (plain === undefined) return null;
  return sanitizeFileName(latin1AsUtf8(unquote(plain)));
}

function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** `charset'language'percent-encoded` (RFC 8187): UTF-8 and ISO-8859-1 only, as the RFC requires of recipients. */
function decodeExtendedValue(value: string): string | null {
  const m = /^([!#$%&+^_`{}~0-9A-Za-z-]*)'[^']*'(.*)$/.exec(value);
  if (!m) return null;
  const charset = m[1]!.toLowerCase();
  const bytes: number[] = [];
  const text = m[2]!;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = c.charCodeAt(0);
      if (code > 0x7e) return null;
      bytes.push(code);
    }
  }
  try {
    if (charset === 'utf-8') return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    if (charset === 'iso-8859-1') return Buffer.from(bytes).toString('latin1');
  } catch {
    return null;
  }
  return null;
}

/** Node reads header bytes as Latin-1; a raw UTF-8 `filename=` (common, if not standard) is decoded back when it is valid UTF-8. */
function latin1AsUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || Array.from(value).some((c) => c.charCodeAt(0) > 0xff)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
