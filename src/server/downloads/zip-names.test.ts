import { describe, expect, it } from 'vitest';
import { zipEntryNames } from './zip-names.js';

const names = (...files: [string, string | null][]) => zipEntryNames(files.map(([name, path]) => ({ name, path })));

describe('zipEntryNames', () => {
  it('joins the folder path and the name', () => {
    expect(names(['a.txt', null], ['b.txt', 'docs'], ['c.txt', 'docs/2024/q1'], ['d.txt', ''])).toEqual([
      'a.txt',
      'docs/b.txt',
      'docs/2024/q1/c.txt',
      'd.txt',
    ]);
  });

  it('never lets an entry escape the archive root', () => {
    expect(
      names(
        ['passwd', '../../etc'],
        ['../../etc/shadow', null],
        ['x.txt', '/abs/olute/'],
        ['y.txt', '//server/share'],
        ['z.txt', 'a/./b/../c'],
        ['..', 'up'],
        ['.', null],
        ['w.txt', 'C:\\Users\\me'],
        ['C:', null],
        ['v.txt', '..\\..\\windows'],
      ),
    ).toEqual([
      'etc/passwd',
      'etc/shadow',
      'abs/olute/x.txt',
      'server/share/y.txt',
      'a/b/c/z.txt',
      'up/unnamed',
      'unnamed',
      'Users/me/w.txt',
      'unnamed (2)',
      'windows/v.txt',
    ]);
    for (const n of names(['a', '../../../..'], ['b', '/../'], ['\\..\\c', null])) {
      expect(n.startsWith('/')).toBe(false);
      expect(n.split('/')).not.toContain('..');
    }
  });

  it('turns backslashes into folders', () => {
    expect(names(['report.pdf', 'work\\2024'], ['a\\b.txt', null])).toEqual(['work/2024/report.pdf', 'a/b.txt']);
  });

  it('strips control characters', () => {
    expect(names(['re\u0000po\nrt\t.pdf', 'do\u001bcs\u007f'], ['\u0085x\r.txt', null])).toEqual(['docs/report.pdf', 'x.txt']);
    expect(names(['\u0001\u0002', null])).toEqual(['unnamed']);
  });

  it('de-duplicates case-insensitively before the extension', () => {
    expect(
      names(
        ['report.pdf', null],
        ['Report.PDF', null],
        ['report.pdf', null],
        ['report (2).pdf', null],
        ['report.pdf', 'other'],
        ['notes', null],
        ['NOTES', null],
        ['.env', null],
        ['.ENV', null],
        ['backup.tar.gz', null],
        ['backup.tar.gz', null],
      ),
    ).toEqual([
      'report.pdf',
      'Report (2).PDF',
      'report (3).pdf',
      'report (2) (2).pdf',
      'other/report.pdf',
      'notes',
      'NOTES (2)',
      '.env',
      '.ENV (2)',
      'backup.tar.gz',
      'backup (2).tar.gz',
    ]);
  });

  it('keeps files from taking the name of a folder', () => {
    expect(names(['docs', null], ['a.txt', 'Docs'], ['b.txt', 'docs'])).toEqual(['docs (2)', 'Docs/a.txt', 'docs/b.txt']);
  });

  it('keeps unicode names, in NFC', () => {
    expect(names(['naïve 文件.txt', 'données'], ['nai\u0308ve.txt', null])).toEqual(['données/naïve 文件.txt', 'naïve.txt']);
    // The same name in NFD and NFC is one name.
    expect(names(['é.txt', null], ['e\u0301.txt', null])).toEqual(['é.txt', 'é (2).txt']);
  });

  it('keeps every segment within 255 bytes, extension included', () => {
    const long = 'é'.repeat(200) + '.txt';
    const [a, b] = names([long, null], [long, null]);
    expect(Buffer.byteLength(a!)).toBeLessThanOrEqual(255);
    expect(Buffer.byteLength(b!)).toBeLessThanOrEqual(255);
    expect(a!.endsWith('.txt')).toBe(true);
    expect(b!.endsWith(' (2).txt')).toBe(true);
    expect(a).not.toBe(b);
  });

  it('is deterministic and unique', () => {
    const files = Array.from({ length: 500 }, (_, i) => ({
      name: ['a.txt', 'A.TXT', 'b', 'a (2).txt'][i % 4]!,
      path: [null, 'x', 'X/', '../x'][i % 3] ?? null,
    }));
    const first = zipEntryNames(files);
    expect(zipEntryNames(files)).toEqual(first);
    expect(new Set(first.map((n) => n.toLowerCase())).size).toBe(first.length);
  });
});

describe('zipEntryNames on Windows', () => {
  const names = (...files: [string, string | null][]) => zipEntryNames(files.map(([name, path]) => ({ name, path })));

  it('makes drive-relative names and characters Windows refuses into plain names', () => {
    expect(names(['C:evil.txt', null], ['a<b>c:d"e|f?g*h.txt', null], ['x.txt', 'D:folder/sub'], ['ok.txt', 'c:'])).toEqual([
      'C_evil.txt',
      'a_b_c_d_e_f_g_h.txt',
      'D_folder/sub/x.txt',
      'ok.txt',
    ]);
    // Compatibility forms an extracting tool might normalise: fullwidth colon, solidus, quote.
    expect(names(['C：evil.txt', null], ['a／b.txt', null], ['q＂.txt', null])).toEqual(['C_evil.txt', 'a_b.txt', 'q_.txt']);
  });

  it('renames device names, with or without an extension, in any case and in folders', () => {
    expect(
      names(['con', null], ['aux.txt', null], ['NUL.tar.gz', null], ['Com1.log', null], ['lpt9', null], ['com¹.txt', null], ['CONIN$', null], ['conout$.x', null], ['prn .txt', null], ['file.txt', 'aux/con']),
    ).toEqual(['_con', '_aux.txt', '_NUL.tar.gz', '_Com1.log', '_lpt9', '_com¹.txt', '_CONIN$', '_conout$.x', '_prn .txt', '_aux/_con/file.txt']);
    // Names that only contain a device name are fine.
    expect(names(['console.txt', null], ['auxiliary', null], ['com10', null], ['nul_', null])).toEqual(['console.txt', 'auxiliary', 'com10', 'nul_']);
  });

  it('drops trailing dots and spaces, which Windows would silently remove', () => {
    expect(names(['report.pdf. ', null], ['notes. . .', null], ['x.txt', 'folder. /sub '])).toEqual(['report.pdf', 'notes', 'folder/sub/x.txt']);
    expect(names(['...', null], ['. .', null])).toEqual(['unnamed', 'unnamed (2)']);
  });

  it('keeps the renamed names unique and deterministic', () => {
    const input: [string, string | null][] = [['con.txt', null], ['_con.txt', null], ['CON.TXT', null], ['a:b', null], ['a_b', null], ['a?b', null]];
    const first = names(...input);
    expect(first).toEqual(['_con.txt', '_con (2).txt', '_CON (3).TXT', 'a_b', 'a_b (2)', 'a_b (3)']);
    expect(new Set(first.map((n) => n.toLowerCase())).size).toBe(first.length);
    expect(names(...input)).toEqual(first);
  });
});

/** Why Windows would refuse or alter a segment, or null when it extracts as itself. */
function windowsObjection(segment: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[<>:"|?*\\/\u0000-\u001f]/.test(segment)) return 'refused character';
  if (/^[a-z]:/i.test(segment)) return 'drive prefix';
  if (/[. ]$/.test(segment)) return 'trailing dot or space';
  if (/^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(segment.split('.')[0]!.trimEnd())) return 'device name';
  if (segment === '' || segment === '.' || segment === '..') return 'empty or relative';
  if (Buffer.byteLength(segment) > 255) return 'longer than 255 bytes';
  return null;
}

describe('zipEntryNames under normalisation and truncation', () => {
  const names = (...files: [string, string | null][]) => zipEntryNames(files.map(([name, path]) => ({ name, path })));

  it('treats a character by what it decomposes to: ≮ and ≯ are < and > under NFD and NFKD', () => {
    expect(names(['a≮b≯.txt', null], ['x.txt', 'd≮'])).toEqual(['a_b_.txt', 'd_/x.txt']);
  });

  it('renames device names written in compatibility forms', () => {
    expect(names(['ｃｏｎ.txt', null], ['ＡＵＸ', null], ['ｌｐｔ１.log', 'ｎｕｌ'])).toEqual(['_ｃｏｎ.txt', '_ＡＵＸ', '_ｎｕｌ/_ｌｐｔ１.log']);
  });

  it('drops trailing characters that normalise to dots or spaces, so two names cannot merge', () => {
    expect(names(['notes．', null], ['notes', null], ['x\u3000', null], ['y\u00a0.txt\u2024', null], ['v\u2488', null])).toEqual(['notes', 'notes (2)', 'x', 'y\u00a0.txt', 'v1']);
  });

  it('stays safe after a long name is cut to 255 bytes', () => {
    const longExt = '.' + 'x'.repeat(251);
    const out = names(['a'.repeat(254) + ' b', null], ['b'.repeat(254) + '.c', null], ['conabc' + longExt, null], ['auxabc' + longExt, 'f'.repeat(254) + ' z']);
    for (const entry of out) {
      for (const segment of entry.split('/')) expect(windowsObjection(segment), entry).toBeNull();
    }
    expect(out[0]).toBe('a'.repeat(254));
    expect(out[2]!.startsWith('_con.')).toBe(true);
    expect(out[3]!.startsWith('f'.repeat(254) + '/_aux.')).toBe(true);
  });

  it('gives every segment of hostile names a form Windows, macOS and Linux extract as itself', () => {
    const hostile: [string, string | null][] = [
      ['C:evil.txt', 'D:'],
      ['con.tar.gz', 'AUX/Nul.'],
      ['COM¹', 'lpt³ .d'],
      ['CONIN$.txt', 'conout$'],
      ['a：b.txt', 'x：'],
      ['..', '‥/．．/…'],
      ['trail. . ', 'dir . '],
      ['q"u|o<t>e?s*', null],
      ['\\\\server\\share\\x', null],
      ['﹨﹨server﹨share', null],
      ['℀.txt', null],
      ['ｃｏｎ', 'ＣＯＭ１'],
      ['x'.repeat(300) + ' .txt', 'y'.repeat(300) + '.'],
    ];
    const out = names(...hostile);
    expect(names(...hostile)).toEqual(out);
    expect(new Set(out.map((n) => n.toLowerCase())).size).toBe(out.length);
    for (const entry of out) {
      for (const segment of entry.split('/')) {
        expect(windowsObjection(segment), entry).toBeNull();
        for (const form of [segment.normalize('NFC'), segment.normalize('NFD'), segment.normalize('NFKC'), segment.normalize('NFKD')]) {
          expect(form, entry).not.toMatch(/[<>:"|?*\\/]/);
          expect(form, entry).not.toMatch(/^\.\.?$/);
        }
      }
    }
  });

  it('keeps a renamed device name apart from the names it could be renamed to, in any order', () => {
    const one = names(['con.txt', null], ['con_.txt', null], ['_con.txt', null]);
    const other = names(['_con.txt', null], ['con_.txt', null], ['con.txt', null]);
    expect(one).toEqual(['_con.txt', 'con_.txt', '_con (2).txt']);
    expect(other).toEqual(['_con.txt', 'con_.txt', '_con (2).txt']);
    expect(names(['con.txt', null], ['con_.txt', null], ['_con.txt', null])).toEqual(one);
  });
});
