/**
 * The HTTP details of serving a download (RFC 9110 ranges and validators, RFC 6266/8187
 * Content-Disposition), free of I/O so they can be tested on their own.
 */

import { MIME_PATTERN } from '../../contract/transfers.js';

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/**
 * One `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` over a representation of `size` bytes. A header
 * that is absent, malformed, in another unit or asks for several ranges is ignored: the whole
 * representation is served (RFC 9110 §14.2 allows that). An empty representation is always served whole.
 */
export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined || size === 0) return { kind: 'full' };
  const m = SINGLE_RANGE.exec(header.trim());
  if (!m) return { kind: 'full' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'full' };
  // Digits beyond what a safe integer holds are simply "very large".
  const num = (s: string) => (s.length > 15 ? Number.MAX_SAFE_INTEGER : Number(s));
  if (first === '') {
    const suffix = num(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = num(first);
  if (last !== '' && num(last) < start) return { kind: 'full' }; // invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(num(last), size - 1);
  return { kind: 'partial', start, end };
}

/**
 * Whether `If-Range` lets the Range apply: an entity tag must equal ours exactly (strong
 * comparison; a weak tag never matches), a date must equal our Last-Modified to the second.
 */
export function ifRangeMatches(value: string, etag: string, lastModified: Date): boolean {
  const v = value.trim();
  if (v.startsWith('W/')) return false;
  if (v.startsWith('"')) return v === etag;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return false;
  return Math.floor(date / 1000) === Math.floor(lastModified.getTime() / 1000);
}

/** Range with If-Range applied: a failed If-Range means the whole representation. */
export function decideRequestRange(
  headers: { range?: string; ifRange?: string },
  size: number,
  validators: { etag: string; lastModified: Date },
): RangeDecision {
  const decision = decideRange(headers.range, size);
  if (decision.kind === 'full') return decision;
  if (headers.ifRange !== undefined && !ifRangeMatches(headers.ifRange, validators.etag, validators.lastModified)) return { kind: 'full' };
  return decision;
}

// C0/C1 controls, bidirectional overrides and isolates.
const UNSAFE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** RFC 8187 value characters (attr-char); everything else is percent-encoded as UTF-8. */
const encodeExtValue = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * What a character is under compatibility normalisation (NFKC, which some clients apply): `／`
 * (U+FF0F) and `﹨` (U+FE68) become separators, `＂` (U+FF02) a quote.
 */
const compatibilityForm = (ch: string) => ch.normalize('NFKC');

/**
 * The name as one path segment in NFC: controls and bidirectional overrides removed, anything that
 * is or becomes a quote removed and a separator replaced by `_`, and never `.` or `..`.
 */
function utf8Name(name: string): string {
  const segment = [...name.normalize('NFC').replace(UNSAFE, '')]
    .map((ch) => (compatibilityForm(ch).includes('"') ? '' : /[/\\]/.test(compatibilityForm(ch)) ? '_' : ch))
    .join('')
    .trim();
  return segment === '' || /^\.+$/.test(segment.normalize('NFKC')) ? 'download' : segment;
}

/**
 * The plain-ASCII fallback. Compatibility characters are folded first (NFKD, accents dropped), and
 * only then is the result cleaned, so that folding cannot bring back what cleaning removed:
 * quotes go, separators, `;` and `%` become `_`, anything outside printable ASCII becomes `_`, a
 * leading `..` becomes `_`, and trailing dots and spaces (which Windows drops) are trimmed.
 */
function asciiName(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(UNSAFE, '')
    .replace(/"/g, '')
    .replace(/[^\x20-\x7e]|[/\\;%]/g, '_')
    .trim()
    .replace(/^\.{2,}/, '_')
    .replace(/[. ]+$/, '');
  return folded === '' || folded === '.' ? 'download' : folded;
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>`: exactly one of
 * each, and neither can name a path, break out of its quotes or add a parameter.
 */
export function contentDisposition(name: string): string {
  return `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeExtValue(utf8Name(name))}`;
}


/** The stored type when it is a plain `type/subtype` (as the contract checks it), otherwise application/octet-stream. */
export const safeContentType = (mimeType: string) => (MIME_PATTERN.test(mimeType) ? mimeType.toLowerCase() : 'application/octet-stream');
