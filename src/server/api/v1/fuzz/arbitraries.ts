/**
 * fast-check arbitraries for the property fuzz suites: values that a JSON Schema accepts (type,
 * bounds, enum, format, pattern, required), the values that break one (wrong types, out of range,
 * missing and extra fields), the inputs that have broken servers before (huge strings, deep
 * nesting, NUL and lone surrogates, overlong UTF-8, bidi and combining marks, boundary numbers, bad
 * ids, forged cursors, odd headers), and whole requests for an OpenAPI operation built from them.
 *
 * Values that only exist at run time (a live resource's id, a cursor a list issued) are `Late`
 * placeholders, resolved against the running server's `FuzzWorld` when the request is sent, so a
 * generated request stays valid after the resources it names were replaced.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON Schema from the OpenAPI document is untyped JSON. */
import fc from 'fast-check';
import { cloneJson, fieldPaths, resolve, synthesize, typesOf, withValue, type Operation } from './cases.js';

type Schema = any;
type Document = any;

/** What a `Late` value reads when the request is sent. */
export interface FuzzWorld {
  /** A live value by kind: a resource's id, a slug, a token. */
  id(kind: string): string;
  /** A cursor that a list issued (by its operation id), or null when it has none. */
  cursor(list: string): string | null;
  /** A cursor signed with the server's key, as if a list of this name had issued it. */
  signCursor(list: string, workspaceId: string, position: unknown): string;
  workspaceId: string;
}

/** A value known only when the request is sent; named for the failure report. */
export class Late {
  constructor(
    readonly name: string,
    readonly value: (world: FuzzWorld) => string,
  ) {}

  [fc.toStringMethod]() {
    return `<${this.name}>`;
  }
}

export const late = (name: string, value: (world: FuzzWorld) => string) => new Late(name, value);
export const liveId = (kind: string) => late(kind, (world) => world.id(kind));

/** JSON text written into a body as it is: numbers JSON.stringify would not write, nesting too deep for it, bytes that are not UTF-8. */
export class RawJson {
  constructor(
    readonly name: string,
    readonly bytes: Buffer,
  ) {}

  [fc.toStringMethod]() {
    return `raw(${this.name})`;
  }
}

const raw = (name: string, text: string | Buffer) => new RawJson(name, typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

/** The JSON bytes of a value holding `RawJson` and `Late` pieces. */
export function encodeJson(value: unknown, world: FuzzWorld): Buffer {
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, 'utf8'));
  const walk = (v: unknown): void => {
    if (v instanceof RawJson) parts.push(v.bytes);
    else if (v instanceof Late) text(JSON.stringify(v.value(world)));
    else if (Array.isArray(v)) {
      text('[');
      v.forEach((item, i) => {
        if (i > 0) text(',');
        walk(item === undefined ? null : item);
      });
      text(']');
    } else if (v !== null && typeof v === 'object') {
      text('{');
      let first = true;
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined) continue;
        if (!first) text(',');
        first = false;
        text(`${JSON.stringify(key)}:`);
        walk(item);
      }
      text('}');
    } else text(JSON.stringify(v) ?? 'null');
  };
  walk(value);
  return Buffer.concat(parts);
}

/** Percent-encodes the UTF-8 bytes of `s` (a lone surrogate becomes U+FFFD, as any UTF-8 encoder makes it). */
export const percentEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

// ---------------------------------------------------------------------------------------------
// Hostile values.

const MB = 1_000_000;

/** Strings that have broken parsers, databases, terminals and file systems before. */
export const edgeStrings: string[] = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '\u0001\u0008\u001b\u001f',
  'a\u007f\u0085\u009fb',
  // Lone and reversed surrogates: no UTF-8 can carry them.
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  // Bidirectional overrides and marks, right-to-left scripts.
  'gnp\u202e.exe',
  '\u200f\u061c\u2066\u2069',
  'مرحبا بالعالم',
  'שלום',
  // Emoji: ZWJ sequences, flags, skin tones, keycaps.
  '👩‍👩‍👧‍👦',
  '🇺🇳🏳️‍🌈',
  '👍🏽',
  '1️⃣',
  // Combining marks, alone and stacked.
  'e\u0301',
  '\u0301',
  `Z${'\u0336\u0334\u0335\u0337'.repeat(64)}`,
  // Invisible and special code points.
  '\ufeff',
  '\u200b\u200c\u200d',
  '\u00a0',
  '\u2028\u2029',
  '\uffff\ufffe\ufdd0',
  '\u{10ffff}',
  '\ufffd',
  // Compatibility forms that normalise into syntax.
  '．．／．．／',
  'ﬁ',
  'İı',
  'ß',
  // Syntax of other languages.
  "' OR 1=1 --",
  '%_\\',
  '%s%n%x',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..\\..\\windows',
  'C:\\CON',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e308',
  'true',
  // Lengths around the usual limits.
  'x'.repeat(255),
  'x'.repeat(256),
  'x'.repeat(10_001),
];

/** Strings of about a megabyte: one just under the JSON body limit (1 MiB), one over it in UTF-8 bytes. */
export const hugeStrings: string[] = ['x'.repeat(MB), '😀'.repeat(MB / 3)];

/** Any code point, lone surrogates included. */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...edgeStrings) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...hugeStrings) },
);

/** UTF-8 a decoder must refuse or replace: overlong forms, CESU surrogates, out of range, truncated. */
export const invalidUtf8: [string, number[]][] = [
  ['overlong /', [0xc0, 0xaf]],
  ['overlong NUL', [0xc0, 0x80]],
  ['3-byte overlong /', [0xe0, 0x80, 0xaf]],
  ['4-byte overlong /', [0xf0, 0x80, 0x80, 0xaf]],
  ['CESU surrogate', [0xed, 0xa0, 0x80]],
  ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['5-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
  ['FF FE', [0xff, 0xfe]],
  ['truncated', [0xe2, 0x82]],
  ['lone continuation', [0x80]],
];

/** A JSON string holding bytes that are not UTF-8. */
const invalidUtf8String = fc
  .constantFrom(...invalidUtf8)
  .map(([name, bytes]) => raw(`string with ${name}`, Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')])));

/** Numbers at the edges: of JSON, of IEEE 754, of safe integers, of 32 and 64 bits. */
export const boundaryNumbers: number[] = [
  0, -1, 1, 1.5, -1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, -(2 ** 31) - 1, 2 ** 53, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e308, -1e308,
  Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, 1e21, 0.1,
];

/** Number literals that JSON.stringify never writes but a parser reads: -0, past safe integers, overflow, underflow, exponents. */
const rawNumbers = fc.constantFrom('-0', '9007199254740993', '-9007199254740993', '1e400', '-1e400', '1e-400', '5e-324', '1E2', '0.0000001', '123456789012345678901234567890').map((n) => raw(n, n));

/** Nesting far deeper than any schema, written as text (JSON.stringify would overflow the stack first). */
export const deepNesting = fc.constantFrom<[string, string]>(
  ['10k arrays', '['.repeat(10_000) + ']'.repeat(10_000)],
  ['10k objects', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)],
  ['10k mixed', '[{"a":'.repeat(5_000) + 'null' + '}]'.repeat(5_000)],
  ['100k arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
);
const deepValue = deepNesting.map(([name, text]) => raw(name, text));

/** JSON objects a careless merge turns into prototype pollution, and keys a database cannot hold. */
const trickyObjects = fc.constantFrom(
  raw('__proto__ key', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
  raw('duplicate keys', '{"a":1,"a":"two"}'),
  raw('NUL key', '{"k\\u0000":"v"}'),
  raw('empty key', '{"":1}'),
);

/** Any value at all, leaning to the ones that break things. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileText },
  { weight: 3, arbitrary: fc.constantFrom(...boundaryNumbers) },
  { weight: 2, arbitrary: rawNumbers },
  { weight: 1, arbitrary: invalidUtf8String },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: trickyObjects },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { a: 1 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// ---------------------------------------------------------------------------------------------
// From a JSON Schema.

export interface SchemaContext {
  doc: Document;
  /** A live resource for a field of this name (`collectionId`…), when one exists. */
  idFor?: (name: string) => Late | undefined;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** Integers in [min, max], biased to both ends. */
function integerBetween(min: number, max: number): fc.Arbitrary<number> {
  const lo = clamp(min, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const hi = clamp(max, lo, Number.MAX_SAFE_INTEGER);
  return fc.oneof(fc.constantFrom(lo, hi), fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: Math.min(hi, lo + 10) }));
}

function stringFor(s: Schema, name: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, s.maxLength ?? 200);
  if (s.format === 'email' || /email/i.test(name)) {
    // Mostly plain and distinct addresses (so that creating one twice is rare), some odd but valid ones.
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9]{1,24}$/).map((local) => `${local}@example.test`) },
        { weight: 1, arbitrary: fc.constantFrom('Ada.Lovelace+tag@Example.TEST', 'ü@bücher.example', "o'hara@example.test") },
        { weight: 1, arbitrary: fc.emailAddress() },
      )
      .filter((e) => e.length <= max);
  }
  if (s.format === 'date-time' || /deadline|At$/.test(name)) {
    return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  }
  if (s.format === 'uri' || /url/i.test(name)) return fc.oneof(fc.constant('https://example.test/'), fc.webUrl()).filter((u) => u.length <= max);
  if (typeof s.pattern === 'string') {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(s.pattern, 'u');
    } catch {
      pattern = null;
    }
    if (pattern) return fc.stringMatching(pattern).filter((v) => v.length >= min && v.length <= max);
  }
  const fit = (v: string) => (v.length > max ? v.slice(0, max) : v.padEnd(min, 'x'));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, 40) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(max, 20) }).map(fit) },
    { weight: 1, arbitrary: fc.constantFrom(...edgeStrings).map(fit) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.min(max, MB))) },
  );
}

/** Values the schema accepts, as far as its own words go (a field naming a resource gets a live one). */
export function validArbitrary(ctx: SchemaContext, schema: Schema, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(ctx.doc, schema);
  const live = ctx.idFor?.(name);
  const fromSchema = validFromSchema(ctx, s, name, depth);
  const withExample = s.example !== undefined ? fc.oneof(fc.constant(structuredClone(s.example)), fromSchema) : fromSchema;
  return live ? fc.oneof({ weight: 4, arbitrary: fc.constant(live) }, { weight: 1, arbitrary: withExample }) : withExample;
}

function validFromSchema(ctx: SchemaContext, s: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 5) return fc.constant(synthesize(ctx.doc, s, name, depth));
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  const variants: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => validArbitrary(ctx, v, name, depth)));
  const types = typesOf(s);
  const choices = (types.length > 0 ? types : [s.properties ? 'object' : 'string']).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerBetween(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -(2 ** 31)), s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 2 ** 31));
      case 'number':
        return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
      case 'array': {
        const minItems = s.minItems ?? 0;
        return fc.array(validArbitrary(ctx, s.items ?? {}, name, depth + 1), { minLength: minItems, maxLength: Math.max(minItems, Math.min(s.maxItems ?? 3, 3)) });
      }
      case 'object': {
        const properties: Record<string, Schema> = s.properties ?? {};
        const model = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, validArbitrary(ctx, sub, key, depth + 1)]));
        return fc.record(model, { requiredKeys: (s.required ?? []).filter((k: string) => k in properties) });
      }
      default:
        return stringFor(s, name);
    }
  });
  return choices.length === 1 ? choices[0]! : fc.oneof(...choices);
}

/** Values the schema refuses by its own bounds: one past each limit, a fraction, an enum's near miss, a broken pattern. */
function outOfRange(s: Schema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  if (typeof s.minimum === 'number') out.push(fc.constantFrom(s.minimum - 1, s.minimum - 0.5));
  if (typeof s.maximum === 'number') out.push(fc.constantFrom(s.maximum + 1, s.maximum + 0.5, s.maximum * 2 + 1));
  if (typesOf(s).includes('integer')) out.push(fc.constantFrom(0.5, 1.000001, -0.1));
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push(fc.constant('x'.repeat(s.minLength - 1)));
  if (typeof s.maxLength === 'number') out.push(fc.constantFrom('x'.repeat(s.maxLength + 1), '😀'.repeat(s.maxLength)));
  if (typeof s.minItems === 'number' && s.minItems > 0) out.push(fc.constant([]));
  if (typeof s.maxItems === 'number') out.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => synthesizeItem(s))));
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const first = String(s.enum[0]);
    out.push(fc.constantFrom(first.toUpperCase(), ` ${first}`, `${first}\u0000`, `${first}x`, first.normalize('NFD') + '\u0301'));
  }
  if (typeof s.pattern === 'string') out.push(fc.constantFrom('', '-', 'a b', 'ü', '\u0000'));
  if (s.format === 'email') out.push(fc.constantFrom('not-an-email', '@', 'a@', '@b', 'a@@b', 'a@b@c', `${'a'.repeat(250)}@x.y`));
  if (s.format === 'date-time') out.push(fc.constantFrom('2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '0000-00-00T00:00:00Z', '9999-12-31T23:59:60Z', 'yesterday', '1e308', '2026-01-01'));
  if (s.format === 'uri') out.push(fc.constantFrom('not a url', 'javascript:alert(1)', 'http://', 'file:///etc/passwd', 'http://[::1', 'http://127.0.0.1:0/', 'http://0x7f.1/', `http://${'a'.repeat(300)}.test/`));
  return out;
}

const synthesizeItem = (s: Schema) => (s.items?.type === 'string' ? 'x' : s.items?.type === 'integer' ? 1 : {});

/** A value of a JSON type the schema does not allow. */
function wrongType(s: Schema): fc.Arbitrary<unknown> {
  const types = typesOf(s);
  const byType: Record<string, fc.Arbitrary<unknown>> = {
    string: hostileText,
    number: fc.constantFrom(...boundaryNumbers),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.constantFrom([], ['a'], [[[]]], [null]),
    object: fc.constantFrom({}, { a: 1 }, { '': '' }),
  };
  const wrong = Object.entries(byType)
    .filter(([type]) => !(types.includes(type) || (type === 'number' && types.includes('integer'))))
    .map(([, arb]) => arb);
  return wrong.length > 0 ? fc.oneof(...wrong) : hostileValue;
}

/** A value that breaks the schema (or at least tries hard to). */
export function invalidArbitrary(ctx: SchemaContext, schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(ctx.doc, schema);
  const variants: Schema[] | undefined = s.anyOf ?? s.oneOf;
  const bounds = variants ? variants.flatMap((v) => outOfRange(resolve(ctx.doc, v))) : outOfRange(s);
  return fc.oneof(
    { weight: 3, arbitrary: variants ? hostileValue : wrongType(s) },
    ...(bounds.length > 0 ? [{ weight: 3, arbitrary: fc.oneof(...bounds) }] : []),
    { weight: 3, arbitrary: hostileValue },
  );
}

// ---------------------------------------------------------------------------------------------
// Whole bodies.

/** Keys a body should not have: unknown, prototype-polluting, unprintable. */
const extraKeys = fc.oneof(fc.constantFrom('fuzzUnknown', 'id', 'workspaceId', 'createdAt', 'status', '__proto__', 'constructor', '', ' ', 'a.b', '\u0000', '\ud800', 'x'.repeat(10_000)), fc.string({ maxLength: 10 }));

/** Bodies that are not the JSON object the endpoint reads. */
export const junkBodies: fc.Arbitrary<{ name: string; bytes: Buffer }> = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['empty', ''],
    ['not JSON', '{"a":'],
    ['JSON null', 'null'],
    ['JSON array', '[]'],
    ['JSON string', '"x"'],
    ['JSON number', '-0'],
    ['JSON true', 'true'],
    ['trailing comma', '{"a":1,}'],
    ['single quotes', "{'a':1}"],
    ['comment', '{/* c */}'],
    ['NaN literal', '{"a":NaN}'],
    ['two documents', '{}{}'],
    ['BOM then JSON', '\ufeff{}'],
    ['whitespace only', ' \n\t '],
    ['1.1 MB', JSON.stringify({ pad: 'x'.repeat(1_100_000) })],
  ).map(([name, text]) => ({ name, bytes: Buffer.from(text, 'utf8') })),
  deepNesting.map(([name, text]) => ({ name, bytes: Buffer.from(text, 'utf8') })),
  fc.constantFrom(...invalidUtf8).map(([name, bytes]) => ({ name: `JSON with ${name}`, bytes: Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bytes), Buffer.from('"}')]) })),
  fc.constantFrom<[string, BufferEncoding]>(['UTF-16LE', 'utf16le'], ['latin1', 'latin1']).map(([name, enc]) => ({ name: `JSON in ${name}`, bytes: Buffer.from('{"title":"ü"}', enc) })),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ name: 'random bytes', bytes: Buffer.from(b) })),
);

export type Body = { kind: 'json'; value: unknown } | { kind: 'bytes'; bytes: Buffer };

/** A copy of `body` without the value at `path`. */
function without(body: unknown, path: (string | number)[]): unknown {
  const root = cloneJson(body);
  let node: any = root;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return root;
    node = node[key];
  }
  if (node !== null && typeof node === 'object') delete node[path[path.length - 1]!];
  return root;
}

/** The paths of the required fields of a body schema (top level and inside objects and first array items). */
function requiredPaths(ctx: SchemaContext, schema: Schema): (string | number)[][] {
  const out: (string | number)[][] = (resolve(ctx.doc, schema).required ?? []).map((k: string) => [k]);
  for (const [path, sub] of fieldPaths(ctx.doc, schema)) {
    for (const key of resolve(ctx.doc, sub).required ?? []) out.push([...path, key]);
  }
  return out;
}

/** Valid bodies for an operation: from its schema, or (mostly) `validBody` where validity depends on more than the schema. */
export function validBodyArbitrary(ctx: SchemaContext, schema: Schema, validBody?: unknown): fc.Arbitrary<unknown> {
  const fromSchema = validArbitrary(ctx, schema);
  return validBody === undefined ? fromSchema : fc.oneof({ weight: 2, arbitrary: fc.constant(validBody) }, { weight: 1, arbitrary: fromSchema });
}

/** One way to break a body, named, as a change to the body it is applied to. */
export interface BodyMutation {
  name: string;
  apply: (body: Body | undefined) => Body;
}

const asJson = (body: Body | undefined): unknown => (body?.kind === 'json' ? body.value : {});

/** Every kind of broken body for a schema: one field broken (however deep), a required field missing, an extra field, not the JSON object at all. */
export function bodyMutations(ctx: SchemaContext, schema: Schema): fc.Arbitrary<BodyMutation> {
  const paths = fieldPaths(ctx.doc, schema);
  const required = requiredPaths(ctx, schema);
  const json = (value: unknown): Body => ({ kind: 'json', value });
  const broken: fc.Arbitrary<BodyMutation>[] = [
    fc.tuple(extraKeys, hostileValue).map(([key, value]) => ({
      name: `extra field ${JSON.stringify(key.slice(0, 20))}`,
      apply: (body) => {
        const v = asJson(body);
        return json(v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...(cloneJson(v) as object), [key]: value } : v);
      },
    })),
    junkBodies.map(({ name, bytes }) => ({ name: `body: ${name}`, apply: (): Body => ({ kind: 'bytes', bytes }) })),
  ];
  if (paths.length > 0) {
    broken.push(
      fc.constantFrom(...paths).chain(([path, sub]) =>
        invalidArbitrary(ctx, sub).map((value) => ({ name: `field ${path.join('.')} broken`, apply: (body: Body | undefined) => json(withValue(ctx.doc, schema, cloneJson(asJson(body)), path, value)) })),
      ),
    );
  }
  if (required.length > 0) {
    broken.push(fc.constantFrom(...required).map((path) => ({ name: `required ${path.join('.')} missing`, apply: (body: Body | undefined) => json(without(asJson(body), path)) })));
  }
  return fc.oneof(...broken);
}

// ---------------------------------------------------------------------------------------------
// Path segments, query strings, headers.

/** Path segments that name nothing, or try to name something else, already percent-encoded. */
export const badSegments: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%00',
    'a%00b',
    '%01',
    '%7F',
    '..',
    '.',
    '%2e%2e',
    '..%2F..%2Fetc',
    '%2F',
    '%5C',
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%ED%A0%80',
    '%FF',
    '%EF%BB%BF',
    'a'.repeat(10_000),
    'null',
    'undefined',
    '0',
    '-1',
    '1e308',
    '%20',
    '+',
    ';',
    '*',
  ),
  hostileText.filter((s) => s.length < 2_000).map(percentEncode),
);

/** Ids of the right shape that name nothing, of another type, or one character off the shape. */
export function badIds(schema: Schema): fc.Arbitrary<string> {
  const pattern = typeof schema?.pattern === 'string' ? new RegExp(schema.pattern) : null;
  const prefix = /^\^([a-z]+)_/.exec(schema?.pattern ?? '')?.[1] ?? 'tr';
  return fc.oneof(
    ...(pattern ? [fc.stringMatching(pattern)] : []),
    fc.constantFrom(`${prefix}_${'A'.repeat(61)}`, `${prefix.toUpperCase()}_abc`, `${prefix}_`, `${prefix}_abc-def`, `${prefix}_%C3%BC`, `${prefix}__a`, 'ws_4fQ9s0aQ2nVt7LbX4cRw', 'key_abc', `${prefix}_abc%00`),
    badSegments,
  );
}

/** Query values for a parameter: valid ones, broken ones and raw encodings, each already encoded (or `Late`). */
export function queryValue(ctx: SchemaContext, name: string, schema: Schema): fc.Arbitrary<string | Late> {
  const s = resolve(ctx.doc, schema);
  const encoded = (a: fc.Arbitrary<unknown>) => a.map((v) => (v instanceof Late ? new Late(v.name, (w) => percentEncode(v.value(w))) : percentEncode(typeof v === 'string' ? v : JSON.stringify(v) ?? '')));
  const numeric = typesOf(s).some((t) => t === 'integer' || t === 'number');
  return fc.oneof(
    { weight: 4, arbitrary: encoded(validArbitrary(ctx, s, name)) },
    { weight: 2, arbitrary: encoded(invalidArbitrary(ctx, s)) },
    {
      weight: 2,
      arbitrary: numeric
        ? fc.constantFrom('0', '-0', '-1', '0x10', '1e2', '%2010', '10%20', '%2B10', '1.5', '1.0', '99999999999999999999', '9007199254740993', 'NaN', 'Infinity', '', '%00', 'ten', '%EF%BC%91')
        : fc.constantFrom('', '%00', 'a%00b', '%C0%AF', '%ED%A0%80', '%FF', '%', '%zz', '+', '%2B', 'a'.repeat(10_000), '%E0%A4%A'),
    },
    ...(name === 'cursor' ? [{ weight: 6, arbitrary: cursorValue }] : []),
  );
}

/** Cursors: the real one, the real one tampered with, random ones, and ones signed with the server's key but holding a position no list wrote. */
export const cursorValue: fc.Arbitrary<string | Late> = fc.oneof(
  fc.constant(late('issued cursor', (w) => percentEncode(w.cursor('self') ?? 'none'))),
  fc.tuple(fc.nat(200), fc.constantFrom('flip', 'truncate', 'append', 'extra dot', 'case', 'swap halves')).map(([at, how]) =>
    late(`issued cursor, ${how} at ${at}`, (w) => {
      const c = w.cursor('self') ?? 'eyJhIjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const i = at % c.length;
      const tampered = {
        flip: c.slice(0, i) + (c[i] === 'A' ? 'B' : 'A') + c.slice(i + 1),
        truncate: c.slice(0, i),
        append: `${c}A`,
        'extra dot': `${c}.x`,
        case: c.toUpperCase(),
        'swap halves': c.split('.').reverse().join('.'),
      }[how]!;
      return percentEncode(tampered);
    }),
  ),
  fc.tuple(fc.base64String({ maxLength: 200 }), fc.base64String({ minLength: 32, maxLength: 44 })).map(([a, b]) => percentEncode(`${a.replace(/=/g, '')}.${b.replace(/=/g, '')}`)),
  fc
    .tuple(
      fc.constantFrom('own list', 'other list', 'other workspace'),
      fc.oneof(
        fc.constantFrom<unknown>([], [null], [{}], [[]], ['not a date', 'tr_x'], ['2026-01-01T00:00:00Z', { a: 1 }], [1e308, 'x'], [-1], [2 ** 53 + 1], ['\u0000'], ['NaN'], [true, false], 'not an array', { 0: 1 }),
        fc.jsonValue({ maxDepth: 2 }).map((v) => [v, v]),
      ),
    )
    .map(([whose, position]) =>
      late(`forged cursor (${whose}) at ${JSON.stringify(position).slice(0, 60)}`, (w) => {
        const issued = w.cursor('self');
        const decoded = issued ? (JSON.parse(Buffer.from(issued.split('.')[0]!, 'base64url').toString('utf8')) as unknown[]) : ['transfers', w.workspaceId];
        const list = whose === 'other list' ? 'contacts' : String(decoded[0]);
        const workspace = whose === 'other workspace' ? 'ws_0000000000000000000000' : String(decoded[1]);
        return percentEncode(w.signCursor(list, workspace, position));
      }),
    ),
);

/** Idempotency-Key values: good ones (some repeated, so replays and conflicts happen), and every way to break its rule. */
export const idempotencyKeys: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constantFrom('fuzz-key-1', 'fuzz-key-2'),
  fc.constantFrom('', ' ', 'two words', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(10_000), 'clé', '\u00ff', '\t', 'a\tb', '"quoted"', ',', 'a,b'),
  fc.string({ unit: 'binary-ascii', maxLength: 20 }).map((s) => s.replace(/[\r\n\0]/g, '')),
);

/** Values that fetch can send in a header (bytes 0x20-0xFF and tab), leaning to odd ones. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'x', 'k'.repeat(8_000), 'é', '\u00ff\u00fe', 'a\tb', '=?utf-8?b?w7w=?=', '*', ',', ';;;', '0', '-1', '1e308'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 30 }).map((s) => s.trim()),
);

export const contentTypes: fc.Arbitrary<string | null> = fc.constantFrom(
  null,
  'text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;;',
  'application/jsonx',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/offset+octet-stream',
  '*/*',
  '',
  'application/json\u00ff',
);

/** Headers a request could add besides its own, each a way that has upset a server. */
export const extraHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constantFrom('accept-encoding', 'accept', 'accept-language', 'origin', 'cookie', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-http-method-override', 'content-encoding', 'if-none-match', 'if-match', 'range', 'x-request-id', 'user-agent'), headerValue),
  fc.constantFrom<[string, string]>(['x-huge', 'h'.repeat(20_000)], ['cookie', `a=${'c'.repeat(15_000)}`], ['accept-encoding', 'gzip;q=2, br;q=-1, *;q=nan'], ['content-encoding', 'gzip'], ['origin', 'null']),
);
export const extraHeaders: fc.Arbitrary<[string, string][]> = fc.array(extraHeader, { maxLength: 3 });

/** Credential headers other than `valid` (the whole valid value): none, malformed, another scheme, near misses. */
export function brokenAuth(valid: string | Late): fc.Arbitrary<{ name: string; value: Piece | null }> {
  const nearMiss = (name: string, f: (header: string) => string) => (valid instanceof Late ? late(name, (w) => f(valid.value(w))) : f(valid));
  return fc.constantFrom<{ name: string; value: Piece | null }>(
    { name: 'none', value: null },
    { name: 'empty', value: '' },
    { name: 'Bearer only', value: 'Bearer' },
    { name: 'Bearer space', value: 'Bearer ' },
    { name: 'Basic', value: 'Basic dXNlcjpwYXNz' },
    { name: 'lowercase bearer', value: nearMiss('lowercase bearer', (k) => `bearer ${k.replace(/^Bearer /, '')}`) },
    { name: 'key plus a character', value: nearMiss('key plus a character', (k) => `${k}x`) },
    { name: 'key minus a character', value: nearMiss('key minus a character', (k) => k.slice(0, -1)) },
    { name: 'two keys', value: nearMiss('two keys', (k) => `${k}, ${k}`) },
    { name: '10 KB token', value: `Bearer ${'t'.repeat(10_000)}` },
    { name: 'latin-1 token', value: 'Bearer cl\u00e9' },
    { name: 'JWT-shaped', value: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
  );
}

/** The valid credential header most of the time, else a broken one. */
export const authHeaders = (valid: string | Late): fc.Arbitrary<{ name: string; value: Piece | null }> =>
  fc.oneof({ weight: 12, arbitrary: fc.constant({ name: 'valid key', value: valid }) }, { weight: 1, arbitrary: brokenAuth(valid) });

// ---------------------------------------------------------------------------------------------
// Requests.

/** `arbitrary` in one of `outOf` runs, null in the others. */
export const oneIn = <T>(outOf: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: outOf - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

export type Piece = string | Late;

/** One generated request; printed compactly when it is a counterexample. */
export class FuzzRequest {
  constructor(
    readonly label: string,
    readonly method: string,
    /** Path pieces, joined when sent. */
    readonly path: Piece[],
    /** `name=value` pieces, already encoded. */
    readonly query: Piece[][],
    readonly headers: [string, Piece][],
    readonly body: Body | undefined,
    readonly mutations: string[],
    /** Send over a raw socket, for bytes that fetch refuses to put in a header or request line. */
    readonly raw = false,
  ) {}

  [fc.toStringMethod]() {
    const show = (p: Piece) => (p instanceof Late ? `<${p.name}>` : p.length > 120 ? `${JSON.stringify(p.slice(0, 60))}…(${p.length} chars)` : JSON.stringify(p).slice(1, -1));
    const query = this.query.map((parts) => parts.map(show).join('')).join('&');
    const headers = this.headers.map(([n, v]) => `${n}: ${show(v)}`).join('; ');
    const body = !this.body ? 'none' : this.body.kind === 'bytes' ? `${this.body.bytes.length} bytes ${JSON.stringify(this.body.bytes.subarray(0, 80).toString('latin1'))}` : describeJson(this.body.value);
    return `${this.label} [${this.mutations.join(', ') || 'valid'}] ${this.method} ${this.path.map(show).join('')}${query ? `?${query}` : ''} {${headers}} body ${body}${this.raw ? ' (raw socket)' : ''}`;
  }
}

/** A JSON value for a report: long strings shortened, pieces named. */
export function describeJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => {
    if (v instanceof Late) return `<${v.name}>`;
    if (v instanceof RawJson) return `raw(${v.name})`;
    if (typeof v === 'string' && v.length > 120) return `${v.slice(0, 60)}…(${v.length} chars)`;
    return v;
  });
}

export interface OperationFuzzOptions {
  /** Where the operation lives: `/api/v1` for the v1 document's paths. */
  prefix: string;
  /** A valid body, where validity depends on more than the schema. */
  validBody?: unknown;
  /** The live value for each path parameter (a resource's id, a slug), or a choice of them. */
  liveParam: (param: string) => Late | fc.Arbitrary<Late> | null;
  /** The credential header a valid request carries (name and value), if any. */
  credential?: { header: string; value: string | Late };
}

/** A request being put together: a valid one first, then each mutation changes one part of it. */
interface RequestParts {
  params: Record<string, Piece>;
  query: Map<string, Piece[][]>;
  extraQuery: Piece[][];
  body: Body | undefined;
  contentType: string | null;
  idempotencyKey: string | null;
  auth: Piece | null;
  headers: [string, Piece][];
  raw: boolean;
}

/** One thing broken in a request, named for the report. */
interface Mutation {
  name: string;
  apply: (parts: RequestParts) => void;
}

/**
 * Requests for one OpenAPI-style operation: a valid request (live path ids, valid query values,
 * a valid body, the credential) with none, one or a few things broken, each named in `mutations`.
 * Mostly one at a time, so that each broken thing meets the code that should refuse it; shrinking
 * drops the mutations that do not matter.
 */
export function requestArbitrary(ctx: SchemaContext, op: Operation, options: OperationFuzzOptions): fc.Arbitrary<FuzzRequest> {
  const liveParam = (name: string): fc.Arbitrary<Piece> => {
    const live = options.liveParam(name);
    if (!live) return badIds(resolve(ctx.doc, op.pathParamSchemas[name] ?? {}));
    return live instanceof Late ? fc.constant(live) : live;
  };
  const validQuery = (q: { name: string; schema: Schema }): fc.Arbitrary<Piece | null> => {
    const value =
      q.name === 'cursor'
        ? fc.constant(late('issued cursor', (w) => percentEncode(w.cursor('self') ?? '')))
        : validArbitrary(ctx, resolve(ctx.doc, q.schema), q.name).map((v) => (v instanceof Late ? new Late(v.name, (w) => percentEncode(v.value(w))) : percentEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))));
    return oneIn(2, value);
  };
  const withBody = !['GET', 'HEAD'].includes(op.method);
  const takesIdempotencyKey = op.headerParams.some((h) => h.name.toLowerCase() === 'idempotency-key');
  const valid = fc.record({
    params: fc.tuple(...op.pathParams.map(liveParam)),
    query: fc.tuple(...op.queryParams.map(validQuery)),
    body: op.bodySchema ? validBodyArbitrary(ctx, op.bodySchema, options.validBody).map((value): Body => ({ kind: 'json', value })) : fc.constant(undefined),
    idempotencyKey: takesIdempotencyKey ? oneIn(3, fc.uuid()) : fc.constant(null),
  });

  const mutation = (name: string, apply: (parts: RequestParts) => void): Mutation => ({ name, apply });
  const mutations: fc.Arbitrary<Mutation>[] = [];
  if (op.pathParams.length > 0) {
    mutations.push(
      fc.constantFrom(...op.pathParams).chain((name) => badIds(resolve(ctx.doc, op.pathParamSchemas[name] ?? {})).map((bad) => mutation(`path ${name} bad`, (p) => void (p.params[name] = bad)))),
    );
  }
  if (op.queryParams.length > 0) {
    mutations.push(
      fc.constantFrom(...op.queryParams).chain((q) =>
        fc.oneof(
          { weight: 6, arbitrary: queryValue(ctx, q.name, q.schema).map((v) => mutation(`query ${q.name}`, (p) => void p.query.set(q.name, [[`${q.name}=`, v]]))) },
          { weight: 1, arbitrary: fc.tuple(queryValue(ctx, q.name, q.schema), queryValue(ctx, q.name, q.schema)).map(([a, b]) => mutation(`query ${q.name} repeated`, (p) => void p.query.set(q.name, [[`${q.name}=`, a], [`${q.name}=`, b]]))) },
          { weight: 1, arbitrary: fc.constant(mutation(`query ${q.name} without =`, (p) => void p.query.set(q.name, [[q.name]]))) },
        ),
      ),
    );
  }
  mutations.push(
    fc
      .tuple(fc.constantFrom('fuzz', '__proto__', '', '%00', 'limit[]', 'a'.repeat(5000)), fc.constantFrom('1', '', '%00', '%C0%AF'))
      .map(([k, v]) => mutation(`unknown query ${JSON.stringify(k.slice(0, 20))}`, (p) => void p.extraQuery.push([`${k}=${v}`]))),
  );
  if (op.bodySchema) {
    mutations.push(bodyMutations(ctx, op.bodySchema).map((m) => mutation(m.name, (p) => void (p.body = m.apply(p.body)))));
    mutations.push(contentTypes.map((ct) => mutation(`content-type ${JSON.stringify(ct)}`, (p) => void (p.contentType = ct))));
  } else if (withBody) {
    mutations.push(junkBodies.map(({ name, bytes }) => mutation(`unexpected body: ${name}`, (p) => void (p.body = { kind: 'bytes', bytes }))));
  }
  if (takesIdempotencyKey) mutations.push(idempotencyKeys.map((key) => mutation(`Idempotency-Key ${JSON.stringify(key.slice(0, 30))}`, (p) => void (p.idempotencyKey = key))));
  if (options.credential) mutations.push(brokenAuth(options.credential.value).map((a) => mutation(`auth ${a.name}`, (p) => void (p.auth = a.value))));
  mutations.push(extraHeader.map((h) => mutation(`header ${h[0]}`, (p) => void p.headers.push(h))));
  // Bytes fetch will not put in a header: the server's HTTP parser must answer them (400, in the Error shape).
  mutations.push(
    fc
      .constantFrom<[string, string]>(['idempotency-key', 'a\u0000b'], ['idempotency-key', 'a\u0001b'], ['x-fuzz', 'a\rb'], ['content-type', 'application/json\u0000'], ['x fuzz', 'space in name'], ['x-fuzz', 'ü✓'])
      .map((h) => mutation(`raw header ${JSON.stringify(h)}`, (p) => {
        p.headers.push(h);
        p.raw = true;
      })),
  );
  const howMany = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.integer({ min: 2, max: 3 }) });
  const broken = howMany.chain((n) => fc.array(fc.oneof(...mutations), { minLength: n, maxLength: n }));

  return fc.tuple(valid, broken).map(([v, applied]) => {
    const parts: RequestParts = {
      params: Object.fromEntries(op.pathParams.map((name, i) => [name, v.params[i]!])),
      query: new Map(op.queryParams.flatMap((q, i) => (v.query[i] === null ? [] : [[q.name, [[`${q.name}=`, v.query[i]!]]] as const]))),
      extraQuery: [],
      body: v.body,
      contentType: v.body ? 'application/json' : null,
      idempotencyKey: v.idempotencyKey,
      auth: options.credential?.value ?? null,
      headers: [],
      raw: false,
    };
    for (const m of applied) m.apply(parts);
    const path: Piece[] = [options.prefix, ...op.path.split(/(\{\w+\})/).map((part) => parts.params[/^\{(\w+)\}$/.exec(part)?.[1] ?? ''] ?? part)];
    const headers: [string, Piece][] = [];
    if (options.credential && parts.auth !== null) headers.push([options.credential.header, parts.auth]);
    if (parts.body && parts.contentType !== null) headers.push(['content-type', parts.contentType]);
    if (parts.idempotencyKey !== null) headers.push(['idempotency-key', parts.idempotencyKey]);
    headers.push(...parts.headers);
    const query = [...[...parts.query.values()].flat(), ...parts.extraQuery];
    return new FuzzRequest(op.operationId, op.method, path, query, headers, parts.body, applied.map((m) => m.name), parts.raw);
  });
}
