/**
 * Safe, unique entry names for a transfer downloaded as one zip.
 *
 * Each file's relative folder `path` and `name` are joined with '/', backslashes become '/',
 * empty, '.' and '..' segments (and so leading slashes) and a leading drive letter ("C:") are
 * dropped, so no entry can escape the archive root; control characters are stripped; names are
 * put in Unicode NFC. Every segment is made safe to extract on Windows too: characters Windows
 * refuses (`<>:"|?*`, also as compatibility forms such as `：`) become `_`, so "C:evil.txt" is no
 * drive-relative path; trailing dots and spaces are dropped; and device names (CON, PRN, AUX, NUL,
 * COM1–9, LPT1–9, with any extension) get a leading `_`. Names that, after all that, collide
 * case-insensitively with an earlier file, or with a folder used by any file, get " (2)", " (3)"…
 * before the extension. The result depends only on the input.
 */

const MAX_SEGMENT_BYTES = 255;
const FALLBACK_NAME = 'unnamed';

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Cuts `s` to at most `max` UTF-8 bytes without splitting a code point. */
function truncateUtf8(s: string, max: number): string {
  if (Buffer.byteLength(s, 'utf8') <= max) return s;
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > max) break;
    bytes += n;
    out += ch;
  }
  return out;
}

/** Splits "report.pdf" into ["report", ".pdf"]; "archive.tar.gz" into ["archive", ".tar.gz"]; ".env" has no extension. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return [name, ''];
  let base = name.slice(0, dot);
  let ext = name.slice(dot);
  const tarDot = base.length - 4;
  if (tarDot > 0 && base.slice(tarDot).toLowerCase() === '.tar') {
    ext = base.slice(tarDot) + ext;
    base = base.slice(0, tarDot);
  }
  return [base, ext];
}

/** Keeps `base + suffix + ext` within the segment limit by shortening the base (then the extension). */
function fitSegment(base: string, suffix: string, ext: string): string {
  const fixed = Buffer.byteLength(suffix + ext, 'utf8');
  if (fixed >= MAX_SEGMENT_BYTES) return truncateUtf8(base + suffix + ext, MAX_SEGMENT_BYTES);
  return truncateUtf8(base, MAX_SEGMENT_BYTES - fixed) + suffix + ext;
}

// What Windows refuses in a name (besides controls and separators), also in the compatibility
// form an extracting tool might normalise to.
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
// Device names, whatever follows the first dot: `con`, `aux.txt` and `nul.tar.gz` all open a device.
const RESERVED_STEM = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** One folder or file name that extracts as itself on Windows, macOS and Linux, or '' for none. */
function portableSegment(raw: string): string {
  let s = [...raw]
    .map((ch) => {
      const compat = ch.normalize('NFKC');
      return WINDOWS_FORBIDDEN.test(compat) || /[/\\]/.test(compat) ? '_' : ch;
    })
    .join('')
    // Windows drops trailing dots and spaces, which could merge two names or empty one.
    .replace(/[. ]+$/, '');
  if (s.trim() === '' || /^\.+$/.test(s.normalize('NFKC'))) return '';
  if (RESERVED_STEM.test(s.split('.')[0]!.trimEnd())) s = `_${s}`;
  return s;
}

function segments(value: string | null): string[] {
  if (!value) return [];
  const out: string[] = [];
  const parts = value.normalize('NFC').replace(CONTROL_CHARS, '').replace(/\\/g, '/').split('/');
  for (const raw of parts) {
    // A drive letter at the root ("C:/Users/…") would make the entry absolute on Windows.
    if (out.length === 0 && /^[a-zA-Z]:$/.test(raw)) continue;
    const segment = portableSegment(raw);
    if (segment === '') continue;
    const [base, ext] = splitExtension(segment);
    out.push(fitSegment(base, '', ext));
  }
  return out;
}

const key = (s: string) => s.toLowerCase();

export function zipEntryNames(files: readonly { name: string; path: string | null }[]): string[] {
  const joined = files.map((f) => {
    const nameSegs = segments(f.name);
    return [...segments(f.path), ...(nameSegs.length > 0 ? nameSegs : [FALLBACK_NAME])];
  });

  // Every folder that some file lives in: a file may not take that name, or it could not be extracted.
  const folders = new Set<string>();
  for (const segs of joined) {
    for (let i = 1; i < segs.length; i++) folders.add(key(segs.slice(0, i).join('/')));
  }

  const taken = new Set<string>();
  const nextSuffix = new Map<string, number>();
  return joined.map((segs) => {
    const dir = segs.slice(0, -1).join('/');
    const prefix = dir ? `${dir}/` : '';
    const last = segs[segs.length - 1] ?? FALLBACK_NAME;
    let candidate = prefix + last;
    if (taken.has(key(candidate)) || folders.has(key(candidate))) {
      const [base, ext] = splitExtension(last);
      const counterKey = key(prefix + base) + '\u0000' + key(ext);
      let n = nextSuffix.get(counterKey) ?? 2;
      do {
        candidate = prefix + fitSegment(base, ` (${n})`, ext);
        n++;
      } while (taken.has(key(candidate)) || folders.has(key(candidate)));
      nextSuffix.set(counterKey, n);
    }
    taken.add(key(candidate));
    return candidate;
  });
}
