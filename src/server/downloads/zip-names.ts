/**
 * Safe, unique entry names for a transfer downloaded as one zip.
 *
 * Each file's relative folder `path` and `name` are joined with '/', backslashes become '/',
 * empty, '.' and '..' segments (and so leading slashes) and a leading drive letter ("C:") are
 * dropped, so no entry can escape the archive root; control characters are stripped; names are
 * put in Unicode NFC. Every segment is made safe to extract on Windows too, judging each character
 * by what it decomposes to (NFKD), since an extracting tool may normalise: characters Windows
 * refuses (`<>:"|?*`, also as `：`, `＂` or `≮`) and separators in compatibility form (`／`, `﹨`)
 * become `_`, so "C:evil.txt" is no drive-relative path; trailing dots and spaces (also `．`,
 * `‥`, U+3000) are dropped; and device names (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM1–9,
 * LPT1–9, COM¹²³, LPT¹²³, in any case or compatibility form, with any extension) get a leading
 * `_`, also when cutting a segment to 255 bytes would leave one. Names that, after all that,
 * collide case-insensitively with an earlier file, or with a folder used by any file, get " (2)",
 * " (3)"… before the extension. The result depends only on the input.
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
  const fitted =
    fixed >= MAX_SEGMENT_BYTES ? truncateUtf8(base + suffix + ext, MAX_SEGMENT_BYTES) : truncateUtf8(base, MAX_SEGMENT_BYTES - fixed) + suffix + ext;
  // Cutting can leave a trailing space or a device name ("conabc.<long extension>" → "con.<…>").
  return windowsFinish(fitted);
}

// What Windows refuses in a name (besides controls and separators).
const WINDOWS_FORBIDDEN = /[<>:"|?*/\\]/;
// Device names, whatever follows the first dot: `con`, `aux.txt` and `nul.tar.gz` all open a device.
const RESERVED_STEM = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Drops trailing dots and spaces, which Windows removes silently (so two names could merge, or one
 * vanish), judging by decomposition: `．`, `‥` and U+3000 go too, and `⒈` ("1.") becomes `1`.
 */
function trimTrailingDotsAndSpaces(s: string): string {
  const chars = [...s];
  for (let last = chars.at(-1); last !== undefined && /[.\s]$/u.test(last.normalize('NFKD')); last = chars.at(-1)) {
    chars.pop();
    const rest = last.normalize('NFKD').replace(/[.\s]+$/u, '');
    if (rest !== '') chars.push(rest);
  }
  return chars.join('');
}

function isDeviceName(segment: string): boolean {
  return [segment, segment.normalize('NFKC')].some((form) => RESERVED_STEM.test(form.split('.')[0]!.trimEnd()));
}

/** The last steps of every segment, also after it was cut to length: no trailing dot or space, no device name. */
function windowsFinish(segment: string): string {
  let s = trimTrailingDotsAndSpaces(truncateUtf8(segment, MAX_SEGMENT_BYTES));
  // A leading '_' ends the device name, so this runs at most twice.
  while (isDeviceName(s)) s = trimTrailingDotsAndSpaces(truncateUtf8(`_${s}`, MAX_SEGMENT_BYTES));
  return s;
}

/** One folder or file name whose characters all extract as themselves, or '' for none. */
function portableSegment(raw: string): string {
  const s = trimTrailingDotsAndSpaces(
    [...raw].map((ch) => (WINDOWS_FORBIDDEN.test(ch.normalize('NFKD')) ? '_' : ch)).join(''),
  );
  if (s.trim() === '' || /^\.+$/.test(s.normalize('NFKC'))) return '';
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
    const fitted = fitSegment(base, '', ext);
    if (fitted !== '') out.push(fitted);
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
