import fc from 'fast-check';
import { edgeStrings, extraHeaders, FuzzRequest, late, liveId, oneIn, percentEncode, type Late, type Piece } from '../../api/v1/fuzz/arbitraries.js';

/**
 * Arbitraries for the two protocol endpoints the property fuzz suite covers besides JSON: the tus
 * 1.0 upload endpoint (`/files/`: every method, with random Tus-Resumable, Upload-Length,
 * Upload-Offset, Upload-Metadata and other tus headers, upload tokens and bodies) and the signed
 * download URLs (`/dl/<token>`: forged, expired, truncated and tampered tokens, and every kind of
 * Range and If-Range). Live values (tokens, ids, offsets) are `Late` kinds the suite resolves.
 */

/** A token tampered with in one of the ways a copy-paste or an attacker would. */
export function tampered(kind: string): fc.Arbitrary<Late> {
  return fc.tuple(fc.nat(300), fc.constantFrom('flip', 'truncate', 'append', 'drop signature', 'extra dot', 'case', 'swap halves', 'percent-encoded', 'double', 'space')).map(([at, how]) =>
    late(`${kind}, ${how} at ${at}`, (w) => {
      const t = w.id(kind);
      const i = at % Math.max(1, t.length);
      const changed: Record<string, string> = {
        flip: t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1),
        truncate: t.slice(0, Math.max(1, i)),
        append: `${t}A`,
        'drop signature': t.split('.')[0] ?? '',
        'extra dot': `${t}.x`,
        case: t.toUpperCase(),
        'swap halves': t.split('.').reverse().join('.'),
        'percent-encoded': [...t].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
        double: `${t}${t}`,
        space: `${t.slice(0, i)}%20${t.slice(i)}`,
      };
      return changed[how]!;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Downloads.

/** Range header values: single ranges in and out of bounds, suffixes, several ranges, other units, garbage. */
export const rangeHeaders: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.nat(3000), fc.nat(3000)).map(([a, b]) => `bytes=${a}-${b}`) },
  { weight: 2, arbitrary: fc.nat(3000).map((a) => `bytes=${a}-`) },
  { weight: 2, arbitrary: fc.nat(3000).map((n) => `bytes=-${n}`) },
  { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(100), fc.nat(100)), { minLength: 2, maxLength: 5 }).map((rs) => `bytes=${rs.map(([a, b]) => `${a}-${a + b}`).join(',')}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'bytes=0-0',
      'bytes=-0',
      'bytes=0-',
      'bytes=-1',
      'bytes=1-0',
      'bytes=99999999999999999999-',
      'bytes=0-99999999999999999999',
      'bytes=-99999999999999999999',
      'bytes=9007199254740993-9007199254740994',
      'bytes=1e3-',
      'bytes=0x10-0x20',
      'bytes=+1-2',
      'bytes=-5-10',
      'bytes=--1',
      'bytes=1-2-3',
      'bytes= 0 - 1 ',
      'BYTES=0-1',
      'bytes=0-1,',
      'bytes=,',
      'bytes=',
      'bytes',
      'items=0-1',
      'bytes=١-٢',
      'bytes=0-1, 0-1, 0-1',
      `bytes=${Array.from({ length: 1000 }, (_, i) => `${i}-${i}`).join(',')}`,
      'bytes=0-1\u00ff',
      '',
      'x'.repeat(10_000),
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('b', 'y', 't', 'e', 's', '=', '-', ',', ' ', '0', '1', '9'), maxLength: 20 }) },
);

/** If-Range values: the real validators, weak ones, dates, garbage. */
export const ifRangeHeaders = (etagKind: string): fc.Arbitrary<Piece> =>
  fc.oneof(
    fc.constant(liveId(etagKind)),
    fc.constant(late(`weak ${etagKind}`, (w) => `W/${w.id(etagKind)}`)),
    fc.constantFrom('"nope"', '*', 'W/"x"', 'Tue, 10 Mar 2026 12:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday', '', '"', '""', 'Mon, 99 Foo 2026 99:99:99 GMT', '1e308'),
  );

/** How a forged token's claims are made from a live token's claims. */
export type ForgedClaims = (real: Record<string, unknown>, nowMs: number) => unknown;

/** Claims of a forged download token, signed with the server's key: every field wrong in turn. */
export const forgedDownloadClaims: fc.Arbitrary<[string, ForgedClaims]> = fc.constantFrom<[string, ForgedClaims]>(
  ['expired', (r, now) => ({ ...r, e: now - 1 })],
  ['expires now', (r, now) => ({ ...r, e: now })],
  ['expiry a fraction', (r) => ({ ...r, e: Number(r.e) + 0.5 })],
  ['expiry a string', (r) => ({ ...r, e: String(r.e) })],
  ['expiry past safe integers', (r) => ({ ...r, e: 2 ** 53 + 2 })],
  ['expiry 1e308', (r) => ({ ...r, e: 1e308 })],
  ['negative expiry', (r) => ({ ...r, e: -1 })],
  ['no expiry', (r) => ({ ...r, e: undefined })],
  ['unknown owner kind', (r) => ({ ...r, k: 'planet' })],
  ['owner kind of another', (r) => ({ ...r, k: r.k === 'collection' ? 'transfer' : 'collection' })],
  ['owner kind vault', (r) => ({ ...r, k: 'vault' })],
  ['owner kind __proto__', (r) => ({ ...r, k: '__proto__' })],
  ['owner that does not exist', (r) => ({ ...r, t: 'tr_0000000000000000000000' })],
  ['owner with a NUL', (r) => ({ ...r, t: `${String(r.t)}\u0000` })],
  ['owner a number', (r) => ({ ...r, t: 1 })],
  ['owner 10 KB', (r) => ({ ...r, t: 'x'.repeat(10_000) })],
  ['file that does not exist', (r) => ({ ...r, f: 'fil_0000000000000000000000' })],
  ['file with a NUL', (r) => ({ ...r, f: 'fil_\u0000' })],
  ['file of another owner', (r) => ({ ...r, f: r.f === 'zip' ? 'fil_0000000000000000000001' : 'zip' })],
  ['file a lone surrogate', (r) => ({ ...r, f: '\ud800' })],
  ['session of nobody', (r) => ({ ...r, s: 'ses_0000000000000000000000' })],
  ['session a number', (r) => ({ ...r, s: 7 })],
  ['session with a NUL', (r) => ({ ...r, s: '\u0000' })],
  ['no session', (r) => ({ ...r, s: null })],
  ['folder within', (r) => ({ ...r, w: 'fld_0000000000000000000000' })],
  ['folder within a NUL', (r) => ({ ...r, w: '\u0000' })],
  ['folder within a number', (r) => ({ ...r, w: 1 })],
  ['not an object', () => 'zip'],
  ['an array', (r) => [r]],
  ['null', () => null],
  ['empty', () => ({})],
  ['deep', () => JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200)) as unknown],
);

/** How a request's token relates to a live link: `live` is the link itself, anything else is not a link of ours. */
export type TokenVariant = 'live' | 'tampered' | 'forged' | 'other purpose' | 'random';

/** Tokens for /dl or /thumb from one live link: itself (mostly), tampered, forged (signed, wrong claims), another purpose's, random. */
export function downloadTokens(kind: string, forge: (name: string, claims: ForgedClaims, kind: string) => Late, otherPurpose: string): fc.Arbitrary<[TokenVariant, Piece]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant<[TokenVariant, Piece]>(['live', liveId(kind)]) },
    { weight: 3, arbitrary: tampered(kind).map((t): [TokenVariant, Piece] => ['tampered', t]) },
    { weight: 3, arbitrary: forgedDownloadClaims.map(([name, claims]): [TokenVariant, Piece] => ['forged', forge(name, claims, kind)]) },
    { weight: 1, arbitrary: fc.constant<[TokenVariant, Piece]>(['other purpose', liveId(otherPurpose)]) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom('x', '%00', '%2F', 'a.b', `${'A'.repeat(4096)}.${'B'.repeat(32)}`, `${'A'.repeat(4097)}.${'B'.repeat(32)}`, 'eyJ0IjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
          fc.tuple(fc.base64String({ maxLength: 100 }), fc.base64String({ minLength: 32, maxLength: 44 })).map(([a, b]) => `${a}.${b}`.replace(/[+/=]/g, (c) => ({ '+': '-', '/': '_', '=': '' })[c]!)),
          fc.constantFrom(...edgeStrings).map(percentEncode),
        )
        // An empty token or a dot segment is another path (`/dl/` is a page of the web app).
        .filter((t) => t !== '' && t !== '.' && t !== '..')
        .map((t): [TokenVariant, Piece] => ['random', t]),
    },
  );
}

/** A request for a signed download or preview URL of one of `kinds`; its label names the link and how its token was made. */
export function downloadRequest(
  base: '/dl/' | '/thumb/',
  kinds: string[],
  forge: (name: string, claims: ForgedClaims, kind: string) => Late,
  otherPurpose: string,
): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...kinds).chain((kind) =>
    fc
      .record({
        method: fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 3, arbitrary: fc.constant('HEAD') }, { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') }),
        token: downloadTokens(kind, forge, otherPurpose),
        // Only suffixes that stay on the route: `/dl/<token>/x` is a page of the web app, not a download.
        suffix: oneIn(12, fc.constantFrom('?a=1', '%2F..', '.', '%00', ';x')),
        range: oneIn(2, rangeHeaders),
        ifRange: oneIn(4, ifRangeHeaders(`${kind}:etag`)),
        extra: extraHeaders,
      })
      .map(({ method, token: [variant, token], suffix, range, ifRange, extra }) => {
        const headers: [string, Piece][] = [];
        const mutations: string[] = [];
        if (suffix !== null) mutations.push(`path + ${suffix}`);
        if (range !== null) {
          headers.push(['range', range]);
          mutations.push(`Range ${JSON.stringify(range.slice(0, 40))}`);
        }
        if (ifRange !== null) {
          headers.push(['if-range', ifRange]);
          mutations.push('If-Range');
        }
        for (const h of extra) {
          headers.push(h);
          mutations.push(`header ${h[0]}`);
        }
        return new FuzzRequest(`${base}${kind} (${variant})`, method, [base, token, ...(suffix !== null ? [suffix] : [])], [], headers, undefined, mutations);
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// tus.

const TUS_VERSION = '1.0.0';

/** Upload-Metadata values: well-formed pairs, and every way to break the key-space-base64 grammar. */
const uploadMetadata: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'filename ZmlsZS5iaW4=,filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt',
    'filename ZmlsZS5iaW4=',
    'is_confidential',
    '',
    ' ',
    ',',
    'a',
    'a b c',
    'a !!!',
    'a ZmlsZQ==,a ZmlsZQ==',
    'filename ZmlsZS5iaW4',
    `filename ${Buffer.from('x'.repeat(8_000)).toString('base64')}`,
    'ü ZmlsZQ==',
    'filename AA==',
    'filename 7aCA',
    'filename,filetype',
    'a  ZmlsZQ==',
  ),
  fc.array(fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 8 }), fc.string({ maxLength: 20 })), { maxLength: 4 }).map((pairs) =>
    pairs.map(([k, v]) => `${k.replace(/[\r\n\0]/g, '')} ${Buffer.from(v).toString('base64')}`).join(','),
  ),
);

/** Decimal-ish header values for Upload-Length and Upload-Offset: the right one (a live kind), and wrong ones. */
const numberHeader = (rightKind: string): fc.Arbitrary<Piece> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(liveId(rightKind)) },
    { weight: 2, arbitrary: fc.nat(40).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('-1', '-0', '0x10', '1e3', ' 3', '3 ', '+3', '3.0', '', 'NaN', '99999999999999999999', '9007199254740993', '١٠', '10, 10', 'ten', '00010', '\t10'),
    },
  );

/**
 * Requests to the tus endpoint: creation (POST /files/), HEAD, PATCH, DELETE and OPTIONS on an
 * upload that is fresh, started, complete or unknown, and the methods and paths that are not tus.
 */
export function tusRequest(uploads: string[]): fc.Arbitrary<FuzzRequest> {
  const upload = fc.constantFrom(...uploads);
  const path = (kind: string): fc.Arbitrary<Piece[]> =>
    fc.oneof(
      { weight: 10, arbitrary: fc.constant<Piece[]>(['/files/', liveId(`${kind}:id`)]) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<Piece[]>(
          ['/files/fil_0000000000000000000000'],
          ['/files/', liveId(`${kind}:id`), '/'],
          ['/files/', liveId(`${kind}:id`), '/x'],
          ['/files/%00'],
          ['/files/..%2Ffiles'],
          [`/files/${'a'.repeat(101)}`],
          ['/files/a.b'],
          ['/files//'],
          ['/files/%C0%AF'],
        ),
      },
    );
  const token = (kind: string): fc.Arbitrary<Piece | null> =>
    fc.oneof(
      { weight: 10, arbitrary: fc.constant(liveId(`${kind}:token`)) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant(liveId('tus:expired-token')) },
      { weight: 1, arbitrary: fc.constant(liveId('tus:other-token')) },
      { weight: 1, arbitrary: tampered(`${kind}:token`) },
      { weight: 1, arbitrary: fc.constantFrom('', 'ut_', `ut_${'A'.repeat(43)}`, `ut_${'A'.repeat(44)}`, 'x'.repeat(10_000), 'ut_é') },
    );
  const tusResumable = fc.oneof({ weight: 10, arbitrary: fc.constant<string | null>(TUS_VERSION) }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '0.2.2', '1.0', '1.0.0,0.2.2', '', ' 1.0.0', '1.0.0\u00ff') });
  const bodyBytes = oneIn(3, fc.oneof(fc.uint8Array({ maxLength: 16 }), fc.constant(new Uint8Array(1_100_000)))).map((b) => (b === null ? undefined : Buffer.from(b)));
  const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant<string | null>('application/offset+octet-stream') }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'application/json', 'application/offset+octet-stream; charset=utf-8', 'APPLICATION/OFFSET+OCTET-STREAM', '') });
  const optional = <T>(n: number, a: fc.Arbitrary<T>) => oneIn(n, a);

  const creation = upload.chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      target: fc.oneof({ weight: 8, arbitrary: fc.constant<Piece[]>(['/files/']) }, { weight: 1, arbitrary: fc.constantFrom<Piece[]>(['/files'], ['/files/?x=1'], ['/files/%2e']) }),
      token: token(kind),
      length: optional(8, numberHeader(`${kind}:size`)).map((v) => v ?? liveId(`${kind}:size`)),
      metadata: optional(2, uploadMetadata),
      defer: optional(12, fc.constantFrom('1', '0', 'x')),
      concat: optional(12, fc.constantFrom('partial', 'final;/files/a /files/b', 'final;', 'x')),
      contentType,
      body: bodyBytes,
    }),
  );

  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.tuple(creation, tusResumable, extraHeaders, optional(10, fc.constantFrom('PATCH', 'DELETE', 'HEAD', 'GET', 'x'))).map(([c, version, extra, override]) => {
        const headers: [string, Piece][] = [];
        const mutations: string[] = [];
        if (version !== null) headers.push(['tus-resumable', version]);
        if (version !== TUS_VERSION) mutations.push(`Tus-Resumable ${JSON.stringify(version)}`);
        if (c.token !== null) headers.push(['x-service-upload-token', c.token]);
        headers.push(['upload-length', c.length]);
        if (c.metadata !== null) headers.push(['upload-metadata', c.metadata]);
        if (c.defer !== null) headers.push(['upload-defer-length', c.defer]);
        if (c.concat !== null) headers.push(['upload-concat', c.concat]);
        if (c.body && c.contentType !== null) headers.push(['content-type', c.contentType]);
        if (override !== null) headers.push(['x-http-method-override', override]);
        for (const h of extra) headers.push(h);
        mutations.push(...(c.defer !== null ? ['Upload-Defer-Length'] : []), ...(c.concat !== null ? ['Upload-Concat'] : []), ...(override !== null ? [`override ${override}`] : []));
        return new FuzzRequest(`tus POST (${c.kind})`, 'POST', c.target, [], headers, c.body ? { kind: 'bytes', bytes: c.body } : undefined, mutations);
      }),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          upload,
          fc.oneof({ weight: 4, arbitrary: fc.constant('PATCH') }, { weight: 3, arbitrary: fc.constant('HEAD') }, { weight: 1, arbitrary: fc.constant('DELETE') }, { weight: 1, arbitrary: fc.constantFrom('OPTIONS', 'GET', 'PUT', 'POST') }),
          tusResumable,
          extraHeaders,
          optional(10, fc.constantFrom('PATCH', 'DELETE', 'HEAD', 'GET', 'x')),
        )
        .chain(([kind, method, version, extra, override]) =>
          fc.record({ path: path(kind), token: token(kind), offset: optional(6, numberHeader(`${kind}:offset`)).map((v) => v ?? liveId(`${kind}:offset`)), contentType, body: bodyBytes, length: optional(12, numberHeader(`${kind}:size`)) }).map((r) => {
            const headers: [string, Piece][] = [];
            const mutations: string[] = [];
            if (version !== null) headers.push(['tus-resumable', version]);
            if (version !== TUS_VERSION) mutations.push(`Tus-Resumable ${JSON.stringify(version)}`);
            if (r.token !== null) headers.push(['x-service-upload-token', r.token]);
            if (method === 'PATCH') {
              headers.push(['upload-offset', r.offset]);
              if (r.contentType !== null) headers.push(['content-type', r.contentType]);
            }
            if (r.length !== null) {
              headers.push(['upload-length', r.length]);
              mutations.push('Upload-Length');
            }
            if (override !== null) {
              headers.push(['x-http-method-override', override]);
              mutations.push(`override ${override}`);
            }
            for (const h of extra) headers.push(h);
            const body = method === 'PATCH' || method === 'PUT' || method === 'POST' ? (r.body ?? Buffer.from('abc')) : undefined;
            return new FuzzRequest(`tus ${method} (${kind})`, method, r.path, [], headers, body ? { kind: 'bytes', bytes: body } : undefined, mutations);
          }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('/files/', '/files').map(
        (p) => new FuzzRequest('tus OPTIONS', 'OPTIONS', [p], [], [['origin', 'http://127.0.0.1'], ['access-control-request-method', 'PATCH']], undefined, []),
      ),
    },
  );
}
