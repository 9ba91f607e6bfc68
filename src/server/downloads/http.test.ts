// @module-tag scale-out — downloads stream from the configured storage
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { zipFileName } from './content.js';
import { contentDisposition, decideRange, decideRequestRange, ifRangeMatches, safeContentType } from './http.js';
import { purposeKey, signToken, verifyToken } from './signing.js';

describe('decideRange', () => {
  it('serves single ranges', () => {
    expect(decideRange('bytes=0-99', 1000)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(decideRange('bytes=500-', 1000)).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(decideRange('bytes=-100', 1000)).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(decideRange('bytes=-5000', 1000)).toEqual({ kind: 'partial', start: 0, end: 999 });
    expect(decideRange('bytes=990-5000', 1000)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(decideRange('Bytes = 1 - 2', 1000)).toEqual({ kind: 'partial', start: 1, end: 2 });
    expect(decideRange('bytes=999-99999999999999999999', 1000)).toEqual({ kind: 'partial', start: 999, end: 999 });
  });

  it('refuses ranges past the end', () => {
    expect(decideRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=1000-2000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=99999999999999999999-', 1000)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: nothing, garbage, other units, several ranges, empty files', () => {
    for (const h of [undefined, '', 'bytes=', 'bytes=-', 'bytes=5-1', 'items=0-1', 'bytes=0-1,5-6', 'bytes=a-b', 'bytes 0-1']) {
      expect(decideRange(h, 1000)).toEqual({ kind: 'full' });
    }
    expect(decideRange('bytes=0-10', 0)).toEqual({ kind: 'full' });
  });
});

describe('If-Range', () => {
  const etag = '"fil_1-cbf43926-9"';
  const lastModified = new Date('2026-03-10T12:00:00.750Z');

  it('matches the exact strong tag or the Last-Modified second', () => {
    expect(ifRangeMatches(etag, etag, lastModified)).toBe(true);
    expect(ifRangeMatches(`W/${etag}`, etag, lastModified)).toBe(false);
    expect(ifRangeMatches('"other"', etag, lastModified)).toBe(false);
    expect(ifRangeMatches(lastModified.toUTCString(), etag, lastModified)).toBe(true);
    expect(ifRangeMatches(new Date('2026-03-10T12:00:01Z').toUTCString(), etag, lastModified)).toBe(false);
    expect(ifRangeMatches('yesterday', etag, lastModified)).toBe(false);
  });

  it('turns a failed If-Range into the whole representation', () => {
    const v = { etag, lastModified };
    expect(decideRequestRange({ range: 'bytes=5-', ifRange: etag }, 9, v)).toEqual({ kind: 'partial', start: 5, end: 8 });
    expect(decideRequestRange({ range: 'bytes=5-', ifRange: '"stale"' }, 9, v)).toEqual({ kind: 'full' });
    expect(decideRequestRange({ range: 'bytes=50-', ifRange: '"stale"' }, 9, v)).toEqual({ kind: 'full' });
    expect(decideRequestRange({ range: 'bytes=50-', ifRange: etag }, 9, v)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(contentDisposition('Überweisung 100%.pdf')).toBe(
      `attachment; filename="Uberweisung 100_.pdf"; filename*=UTF-8''%C3%9Cberweisung%20100%25.pdf`,
    );
    expect(contentDisposition('日本語 (1).txt')).toBe(`attachment; filename="___ (1).txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%20%281%29.txt`);
  });

  it('strips quotes, controls and bidirectional overrides, and replaces path separators', () => {
    const header = contentDisposition('a"b\r\nContent-Type: text/html\u202e/..\\x.txt');
    expect(header).toBe(
      `attachment; filename="abContent-Type_ text_html_.._x.txt"; filename*=UTF-8''abContent-Type%3A%20text_html_.._x.txt`,
    );
    expect(header).not.toMatch(/[\r\n]/);
    expect(contentDisposition('"\u0000"')).toContain('filename="download"');
  });
});

describe('names and types', () => {
  it('names the zip after the title, safely', () => {
    expect(zipFileName(null)).toBe('transfer.zip');
    expect(zipFileName('  ')).toBe('transfer.zip');
    expect(zipFileName('Q1 "final" report')).toBe('Q1 final report.zip');
    expect(zipFileName('../../etc/passwd\u0000')).toBe('-..-etc-passwd.zip');
    expect(zipFileName('x'.repeat(500))).toBe(`${'x'.repeat(200)}.zip`);
  });

  it('serves only plain media types', () => {
    expect(safeContentType('image/PNG')).toBe('image/png');
    expect(safeContentType('text/html; charset=utf-8')).toBe('application/octet-stream');
    expect(safeContentType('')).toBe('application/octet-stream');
  });
});

describe('signed tokens', () => {
  const secret = randomBytes(32);
  const key = purposeKey(secret, 'download-links');

  it('verifies what it signed and nothing else', () => {
    const token = signToken(key, { t: 'tr_1', f: 'zip', s: null, e: 1 });
    expect(verifyToken(key, token)).toEqual({ t: 'tr_1', f: 'zip', s: null, e: 1 });
    expect(verifyToken(purposeKey(secret, 'transfer-unlock'), token)).toBeNull();
    expect(verifyToken(purposeKey(randomBytes(32), 'download-links'), token)).toBeNull();
    const [body, sig] = token.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(verifyToken(key, `${flip(body, 3)}.${sig}`)).toBeNull();
    expect(verifyToken(key, `${body}.${flip(sig, 5)}`)).toBeNull();
    expect(verifyToken(key, `${body}.${sig}x`)).toBeNull();
    expect(verifyToken(key, body)).toBeNull();
    expect(verifyToken(key, '')).toBeNull();
  });
});
