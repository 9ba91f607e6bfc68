import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { contentDisposition } from '../downloads/http.js';
import { createOwnerDownloadLinks } from './download-links.js';
import { seedTransfer, type SeededTransfer } from '../test/transfers.js';

const run = promisify(execFile);

/**
 * A strict RFC 6266 reading of the header: the disposition type, then `; name=value` parameters
 * where a value is a token or a quoted string. Throws on anything else, so a name that breaks
 * out of its quotes or adds a parameter cannot pass.
 */
function parseContentDisposition(header: string): { type: string; params: [string, string][] } {
  const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
  let rest = header;
  const type = token.exec(rest)?.[0];
  if (!type) throw new Error(`no disposition type in ${header}`);
  rest = rest.slice(type.length);
  const params: [string, string][] = [];
  while (rest.length > 0) {
    const m = /^;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)=/.exec(rest);
    if (!m) throw new Error(`bad parameter at ${JSON.stringify(rest)}`);
    rest = rest.slice(m[0].length);
    let value: string;
    if (rest.startsWith('"')) {
      const q = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
      if (!q) throw new Error(`unterminated quoted string at ${JSON.stringify(rest)}`);
      value = q[1]!.replace(/\\(.)/g, '$1');
      rest = rest.slice(q[0].length);
    } else {
      const t = token.exec(rest);
      if (!t) throw new Error(`bad value at ${JSON.stringify(rest)}`);
      value = t[0];
      rest = rest.slice(t[0].length);
    }
    params.push([m[1]!.toLowerCase(), value]);
    rest = rest.replace(/^\s+/, '');
  }
  return { type, params };
}

/** The two names a client may use: the ASCII `filename` and the decoded `filename*`. */
function namesOf(header: string): { ascii: string; utf8: string } {
  const { type, params } = parseContentDisposition(header);
  expect(type).toBe('attachment');
  expect(params.map(([k]) => k)).toEqual(['filename', 'filename*']);
  const ext = params[1]![1];
  expect(ext.startsWith("UTF-8''")).toBe(true);
  return { ascii: params[0]![1], utf8: decodeURIComponent(ext.slice("UTF-8''".length)) };
}

const hostile = [
  '‥／‥／etc／passwd',
  'a＂; filename=evil.html; x=＂.txt',
  '﹨﹨server﹨share',
  '..／..／..／root／.ssh／authorized_keys',
  '．．／secret',
  '/etc/passwd',
  '..\\..\\windows\\system32',
  'report";filename="evil.html',
  'a\r\nContent-Type: text/html',
  '\u202egnp.exe',
  '"',
  '..',
  '．',
  '‥',
  '\u0000',
  'C:\\boot.ini',
  'notes.txt. . ',
  '\u2024\u2024／\u2024\u2024／x',
  '\u2025.pdf',
  '"".pdf',
  '／／／',
  '．．．',
];

describe('Content-Disposition', () => {
  it.each(hostile)('%j gives one filename and one filename*, neither a path nor a broken quote', (name) => {
    const header = contentDisposition(name);
    const { ascii, utf8 } = namesOf(header);
    for (const form of [ascii, utf8, utf8.normalize('NFKC'), ascii.normalize('NFKC')]) {
      // eslint-disable-next-line no-control-regex
      expect(form).not.toMatch(/[/\\"\u0000-\u001f]/);
      expect(form).not.toMatch(/^\.\.?$/);
      expect(form.length).toBeGreaterThan(0);
    }
    expect(ascii).not.toMatch(/^\.\./);
    expect(ascii).not.toMatch(/[;%]/);
    expect(ascii).toMatch(/^[\x20-\x7e]+$/);
  });

  it('folds compatibility characters before cleaning, so they cannot bring separators back', () => {
    expect(namesOf(contentDisposition('‥／‥／etc／passwd')).ascii).toBe('__.._etc_passwd');
    expect(namesOf(contentDisposition('﹨﹨server﹨share')).ascii).toBe('__server_share');
    expect(namesOf(contentDisposition('a＂; filename=evil.html; x=＂.txt')).ascii).toBe('a_ filename=evil.html_ x=.txt');
  });

  it('keeps ordinary names, accents folded in the fallback and exact in filename*', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(namesOf(contentDisposition('Überweisung 100%.pdf'))).toEqual({ ascii: 'Uberweisung 100_.pdf', utf8: 'Überweisung 100%.pdf' });
    expect(namesOf(contentDisposition('.env'))).toEqual({ ascii: '.env', utf8: '.env' });
    expect(namesOf(contentDisposition('日本語.txt'))).toEqual({ ascii: 'download.txt', utf8: '日本語.txt' });
    expect(namesOf(contentDisposition('日本語 report.txt'))).toEqual({ ascii: '___ report.txt', utf8: '日本語 report.txt' });
  });

  it('names a file of only unsafe characters download, keeping its extension', () => {
    const cases: [string, string][] = [
      ['"', 'download'],
      ['"".pdf', 'download.pdf'],
      ['／／.txt', 'download.txt'],
      ['﹨/\\.zip', 'download.zip'],
      ['\u2025.txt', 'download.txt'],
      ['...txt', 'download.txt'],
      ['\u2024\u2024.pdf', 'download.pdf'],
      ['．．．', 'download'],
      ['\u202e\u202e.exe', 'download.exe'],
    ];
    for (const [name, expected] of cases) expect(namesOf(contentDisposition(name)), name).toEqual({ ascii: expected, utf8: expected });
    // A name that is only an extension to begin with is a dotfile, and stays one.
    expect(namesOf(contentDisposition('.env'))).toEqual({ ascii: '.env', utf8: '.env' });
  });

  it('replaces what Windows refuses in the ASCII fallback, so curl -OJ there cannot write a stream or a drive path', () => {
    expect(namesOf(contentDisposition('C:\\boot.ini')).ascii).toBe('C__boot.ini');
    expect(namesOf(contentDisposition('a<b>c|d?e*f:g.txt')).ascii).toBe('a_b_c_d_e_f_g.txt');
    expect(namesOf(contentDisposition('report：final.pdf')).ascii).toBe('report_final.pdf');
  });

  it('never throws on a name with an unpaired surrogate', () => {
    expect(namesOf(contentDisposition('a\ud800b.txt'))).toEqual({ ascii: 'ab.txt', utf8: 'ab.txt' });
    expect(namesOf(contentDisposition('\udfff'))).toEqual({ ascii: 'download', utf8: 'download' });
  });
});

// What the server sends for the first four hostile names: separators, quotes and dot-dots folded
// in before cleaning, never brought back.
const expectedHeaders = [
  `attachment; filename="__.._etc_passwd"; filename*=UTF-8''%E2%80%A5_%E2%80%A5_etc_passwd`,
  `attachment; filename="a_ filename=evil.html_ x=.txt"; filename*=UTF-8''a%3B%20filename%3Devil.html%3B%20x%3D.txt`,
  `attachment; filename="__server_share"; filename*=UTF-8''__server_share`,
  `attachment; filename="__.._.._root_.ssh_authorized_keys"; filename*=UTF-8''.._.._.._root_.ssh_authorized_keys`,
];

describe('a real download named with compatibility characters', () => {
  let server: TestServer;
  let seeded: SeededTransfer;
  const dir = path.join(os.tmpdir(), `parcel-cd-${process.pid}`);
  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seedTransfer(server, { title: null, files: hostile.slice(0, 4).map((name) => ({ name, data: Buffer.from(name) })) });
    await fs.mkdir(dir, { recursive: true });
  });
  afterAll(async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('is saved by curl -OJ inside the directory it was asked to save in, under a single file name', async () => {
    const links = await createOwnerDownloadLinks(server.services, seeded.transfer);
    for (const [i, file] of links.files.entries()) {
      const sub = path.join(dir, String(i));
      await fs.mkdir(sub);
      const res = await fetch(file.url.replace(server.services.config.PUBLIC_URL, server.url));
      expect(res.headers.get('content-disposition')).toBe(expectedHeaders[i]);
      namesOf(res.headers.get('content-disposition')!);
      await res.arrayBuffer();
      await run('curl', ['-sS', '-O', '-J', file.url.replace(server.services.config.PUBLIC_URL, server.url)], { cwd: sub });
      const saved = await fs.readdir(sub);
      expect(saved).toHaveLength(1);
      expect(await fs.readFile(path.join(sub, saved[0]!), 'utf8')).toBe(hostile[i]);
    }
    // Nothing was written outside the directories curl was started in.
    expect((await fs.readdir(dir)).sort()).toEqual(['0', '1', '2', '3']);
  });
});
