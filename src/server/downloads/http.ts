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

// C0/C1 controls, unpaired surrogates (which no encoding can carry), bidirectional marks,
// overrides and isolates: removed from both names.
const UNSAFE = /[\p{Cc}\p{Cs}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** RFC 8187 value characters (attr-char); everything else is percent-encoded as UTF-8. */
const encodeExtValue = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

const FALLBACK_STEM = 'download';

/**
 * Cleans a name one character at a time (controls and overrides dropped, then `clean` keeps,
 * replaces or drops each), leaving a final extension such as `.pdf` as it is. A stem with nothing
 * of its own left (every character dropped or replaced, or only dots and spaces, also as `．` or
 * `‥`) becomes `download`, so `"".pdf` is `download.pdf` rather than a dotfile; `.env` stays one.
 */
function cleanName(name: string, extension: RegExp, clean: (ch: string) => string): string {
  const found = extension.exec(name);
  const ext = found && found.index > 0 ? found[0] : '';
  let own = false;
  const stem = [...name.slice(0, name.length - ext.length)]
    .map((ch) => {
      const out = ch.replace(UNSAFE, '') === '' ? '' : clean(ch);
      if (out === ch && !/^[.\s]*$/u.test(ch.normalize('NFKD'))) own = true;
      return out;
    })
    .join('');
  return (own ? stem : FALLBACK_STEM) + ext;
}

/**
 * The name as one path segment in NFC, for `filename*`: controls and bidirectional overrides
 * removed, anything that decomposes (NFKD) to a quote removed and to a separator replaced by `_`,
 * and never `.` or `..`.
 */
function utf8Name(name: string): string {
  return cleanName(name.normalize('NFC').trim(), /\.[\p{L}\p{N}]{1,16}$/u, (ch) => {
    const compat = ch.normalize('NFKD');
    return compat.includes('"') ? '' : /[/\\]/.test(compat) ? '_' : ch;
  }).trim();
}

/**
 * The plain-ASCII fallback. Compatibility characters are folded first (NFKD, accents dropped), and
 * only then is the result cleaned, so that folding cannot bring back what cleaning removed:
 * quotes go; separators, `;`, `%`, what Windows refuses (`<>:|?*`) and anything outside printable
 * ASCII become `_`; a leading `..` becomes `_`; trailing dots and spaces (which Windows drops) are
 * trimmed.
 */
function asciiName(name: string): string {
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').trim();
  return cleanName(folded, /\.[A-Za-z0-9]{1,16}$/, (ch) => (ch === '"' ? '' : /[^\x20-\x7e]|[/\\;%<>:|?*]/.test(ch) ? '_' : ch))
    .trim()
    .replace(/^\.{2,}/, '_')
    .replace(/[. ]+$/, '');
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
