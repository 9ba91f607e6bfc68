/**
 * File names as they are stored and shown, whoever gives them (an uploader, a URL, an origin's
 * Content-Disposition): one rule for every owner and source.
 */

const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const MAX_NAME_LENGTH = 255;

/**
 * A file name fit to store and show: only the last segment of anything path-like (so `../../etc/passwd`
 * is `passwd`), no control or formatting characters (bidirectional overrides among them), trimmed, at
 * most 255 characters (keeping a short extension when cut). Null when nothing usable is left.
 */
export function sanitizeFileName(raw: string): string | null {
  const last = raw.split(/[/\\]/).pop() ?? '';
  let name = last.replace(UNSAFE_IN_NAME, '').trim();
  if (name === '' || /^\.+$/.test(name)) return null;
  const chars = Array.from(name);
  if (chars.length > MAX_NAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
    name = ext.length > 1 && ext.length <= 16 ? chars.slice(0, MAX_NAME_LENGTH - ext.length).join('') + ext.join('') : chars.slice(0, MAX_NAME_LENGTH).join('');
    name = name.trim();
  }
  return name;
}

/** The last segment of a URL's path, %-decoded and sanitised; null when the path names nothing. */
export function nameFromUrlPath(url: URL | string): string | null {
  const path = (typeof url === 'string' ? new URL(url) : url).pathname;
  const segment = path.split('/').filter(Boolean).pop();
  if (segment === undefined) return null;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape is kept as written.
  }
  return sanitizeFileName(decoded);
}

/** "report.pdf" from `https://host/files/report.pdf?sig=…`; "download" when the path names nothing. */
export const nameFromUrl = (url: string) => nameFromUrlPath(url) ?? 'download';
