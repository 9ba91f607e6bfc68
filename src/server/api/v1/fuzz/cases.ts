/**
 * Request cases for the schema-driven fuzz test, generated from the service's own OpenAPI
 * document: valid requests are synthesised from each operation's schemas (their examples where
 * given), and each case then breaks one thing — a path parameter, a query parameter, one body
 * field (however deep), the whole body, or a header. A new operation is fuzzed without anyone
 * editing the test. Deterministic: the same document gives the same cases, in the same order.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON Schema from the OpenAPI document is untyped JSON. */
type Schema = any;
type Document = any;

export interface Operation {
  method: string;
  /** OpenAPI path, such as `/transfers/{id}`. */
  path: string;
  operationId: string;
  pathParams: string[];
  /** The schema of each path parameter (the id pattern of its resource). */
  pathParamSchemas: Record<string, Schema>;
  queryParams: { name: string; schema: Schema }[];
  /** Request headers the operation documents, such as `Idempotency-Key`. */
  headerParams: { name: string; schema: Schema }[];
  bodySchema: Schema | null;
}

export interface FuzzCase {
  operationId: string;
  /** What was broken, for the failure report: `path id`, `query limit`, `body files.0.name`… */
  location: string;
  mutation: string;
  method: string;
  /** Path params still as `{name}`; the test fills in real ids (or the broken value). */
  path: string;
  pathOverrides: Record<string, string>;
  /** Raw query string, already encoded (so that `%2010` and `%00` go out as written). */
  query: string;
  headers: Record<string, string>;
  /** Raw body text, or undefined for none. */
  body?: string;
  /** The field a NUL was put into: a 400 must name it. */
  nulField?: { location: 'body' | 'query'; path: string };
  /** A NUL in a path id: nothing can exist there, so 404. */
  expectNotFound?: boolean;
}

/**
 * The fuzz suites split the operations by resource, a test file per group, so that the groups run
 * side by side instead of one file taking minutes (docs/testing.md): transfers, collections, and the
 * others (requests, contacts, webhooks, links, imports, me).
 */
export type OperationGroup = 'transfers' | 'collections' | 'others';

export function inGroup(op: Pick<Operation, 'path'>, group: OperationGroup): boolean {
  const resource = op.path.split('/')[1];
  if (group === 'others') return resource !== 'transfers' && resource !== 'collections';
  return resource === group;
}

export function operationsOf(doc: Document): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params: any[] = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        pathParamSchemas: Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, p.schema ?? {}])),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        headerParams: params.filter((p) => p.in === 'header').map((p) => ({ name: p.name, schema: p.schema })),
        bodySchema: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

export function resolve(doc: Document, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 10 && s && typeof s === 'object' && '$ref' in s; i++) {
    s = s.$ref.replace('#/', '').split('/').reduce((node: any, key: string) => node?.[key], doc);
  }
  return s ?? {};
}

export const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value the schema accepts: its example, else the smallest value of its first type. */
export function synthesize(doc: Document, schema: Schema, name = '', depth = 0): unknown {
  const s = resolve(doc, schema);
  // Copies: the cases change these values, and the document must stay as it is.
  if (s.example !== undefined) return structuredClone(s.example);
  if (s.default !== undefined && depth > 0) return structuredClone(s.default);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return synthesize(doc, variants.find((v: Schema) => resolve(doc, v).type !== 'null') ?? variants[0], name, depth);
  const type = typesOf(s).find((t) => t !== 'null') ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 4) return out;
      for (const key of s.required ?? []) out[key] = synthesize(doc, s.properties?.[key] ?? {}, key, depth + 1);
      return out;
    }
    case 'array':
      return depth > 4 || !s.minItems ? [] : [synthesize(doc, s.items ?? {}, name, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 0, Math.min(1, s.maximum ?? 1));
    case 'boolean':
      return false;
    default:
      if (s.format === 'email' || /email/i.test(name)) return 'fuzz@example.test';
      if (s.format === 'date-time') return new Date(Date.UTC(2026, 3, 1)).toISOString();
      if (s.format === 'uri' || /url/i.test(name)) return 'https://example.test/';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** Every property path of a body schema, as `[path, subschema]`, array items as index 0. */
export function fieldPaths(doc: Document, schema: Schema, prefix: (string | number)[] = [], depth = 0): [(string | number)[], Schema][] {
  const s = resolve(doc, schema);
  if (depth > 4) return [];
  const out: [(string | number)[], Schema][] = [];
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    for (const v of variants) out.push(...fieldPaths(doc, v, prefix, depth));
    return out;
  }
  if (s.properties) {
    for (const [key, sub] of Object.entries<Schema>(s.properties)) {
      out.push([[...prefix, key], sub]);
      out.push(...fieldPaths(doc, sub, [...prefix, key], depth + 1));
    }
  }
  if (typesOf(s).includes('array') && s.items) {
    out.push([[...prefix, 0], s.items]);
    out.push(...fieldPaths(doc, s.items, [...prefix, 0], depth + 1));
  }
  return out;
}

/** A deep copy of JSON data; anything that is not a plain object or array (a placeholder of the property suite) is kept as it is. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneJson(v)])) as T;
}

/** A copy of `body` with `value` at `path`, creating missing parents as valid values of their schemas. */
export function withValue(doc: Document, rootSchema: Schema, body: unknown, path: (string | number)[], value: unknown): unknown {
  const root = cloneJson(body ?? {}) as any;
  let node = root;
  let schema = resolve(doc, rootSchema);
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    schema = resolve(doc, typeof key === 'number' ? schema.items : (schema.properties?.[key] ?? {}));
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) schema = resolve(doc, variants.find((v: Schema) => resolve(doc, v).type !== 'null') ?? variants[0]);
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      const made = synthesize(doc, schema, String(key), 1);
      node[key] = typesOf(schema).includes('array') && Array.isArray(made) && made.length === 0 ? [synthesize(doc, schema.items ?? {}, String(key), 2)] : made;
    }
    node = node[key];
  }
  node[path[path.length - 1]!] = value;
  return root;
}

const RAW = '__fuzz_raw__';

/** Values put in place of one body field. `raw` ones are written into the JSON text as they are. */
const fieldMutations: { name: string; value?: unknown; raw?: string; nul?: boolean }[] = [
  { name: 'NUL inside', value: 'a\u0000b', nul: true },
  { name: 'NUL alone', value: '\u0000', nul: true },
  { name: 'C0 controls', value: '\u0001\u0008\u001b\u001f' },
  { name: 'DEL and C1', value: 'a\u007f\u0085\u009fb' },
  { name: 'lone surrogate', value: 'a\ud800b' },
  { name: 'bidi override', value: 'gnp\u202e.exe' },
  { name: '100 KB string', value: 'x'.repeat(100_000) },
  { name: 'number', value: 1 },
  { name: 'negative', value: -1 },
  { name: 'fraction', value: 1.5 },
  { name: 'huge 1e308', value: 1e308 },
  { name: 'past safe integers', raw: '9007199254740993' },
  { name: 'overflow 1e400', raw: '1e400' },
  { name: 'negative zero', raw: '-0' },
  { name: 'object', value: { a: 1 } },
  { name: 'array', value: ['a'] },
  { name: 'null', value: null },
  { name: 'boolean', value: true },
  { name: 'empty string', value: '' },
  { name: 'deeply nested', raw: '['.repeat(10_000) + ']'.repeat(10_000) },
  { name: 'object with a NUL key', value: { 'k\u0000': 'v' } },
];

const pathMutations: { name: string; value: string; nul?: boolean }[] = [
  { name: 'NUL', value: '%00', nul: true },
  { name: 'NUL inside an id', value: 'tr_abc%00def', nul: true },
  { name: 'C0 control', value: '%01' },
  { name: 'DEL', value: '%7F' },
  { name: '10 KB', value: 'a'.repeat(10_000) },
  { name: 'traversal', value: '..%2F..%2Fetc' },
  { name: 'broken escape', value: '%E0%A4%A' },
  { name: 'lone percent', value: '%' },
  { name: 'unicode', value: encodeURIComponent('ü✓') },
  { name: 'id too long', value: `tr_${'A'.repeat(61)}` },
  { name: 'another type of id', value: 'ws_4fQ9s0aQ2nVt7LbX4cRw' },
  { name: 'SQL', value: encodeURIComponent("' OR 1=1 --") },
];

const integerQueryValues = ['0', '-1', '0x10', '1e2', '%2010', '10%20', '%2B10', '1.5', '1.0', '99999999999999999999', 'NaN', 'Infinity', '', '%00', 'ten'];
const stringQueryValues: { name: string; value: string; nul?: boolean }[] = [
  { name: 'NUL', value: '%00', nul: true },
  { name: 'NUL inside', value: 'a%00b', nul: true },
  { name: 'C0 control', value: '%01' },
  { name: '10 KB', value: 'a'.repeat(10_000) },
  { name: 'broken escape', value: '%E0%A4%A' },
  { name: 'unicode', value: encodeURIComponent('ü✓') },
  { name: 'wildcards', value: encodeURIComponent('%_\\') },
];

const headerMutations: [string, string][] = [
  ['space', 'two words'],
  ['256 characters', 'k'.repeat(256)],
  ['latin-1', 'cl\u00e9'],
  ['tab', 'a\tb'],
];

/**
 * `validBody` stands in for the synthesised body where validity depends on more than the schema
 * (a transfer needs files or imports); every other operation is fuzzed from its schema alone.
 */
export function casesFor(doc: Document, op: Operation, validBody?: unknown): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const baseBody = op.bodySchema ? (validBody ?? synthesize(doc, op.bodySchema)) : undefined;
  const jsonHeaders: Record<string, string> = op.bodySchema ? { 'content-type': 'application/json' } : {};
  const base = (location: string, mutation: string): FuzzCase => ({
    operationId: op.operationId,
    location,
    mutation,
    method: op.method,
    path: op.path,
    pathOverrides: {},
    query: '',
    headers: { ...jsonHeaders },
    body: baseBody === undefined ? undefined : JSON.stringify(baseBody),
  });

  cases.push(base('-', 'valid'));

  for (const param of op.pathParams) {
    for (const m of pathMutations) {
      cases.push({ ...base(`path ${param}`, m.name), pathOverrides: { [param]: m.value }, expectNotFound: m.nul });
    }
  }

  for (const { name, schema } of op.queryParams) {
    const s = resolve(doc, schema);
    if (typesOf(s).includes('integer') || typesOf(s).includes('number')) {
      for (const v of integerQueryValues) cases.push({ ...base(`query ${name}`, JSON.stringify(v)), query: `${name}=${v}` });
      cases.push({ ...base(`query ${name}`, 'repeated'), query: `${name}=1&${name}=2` });
    } else {
      for (const m of stringQueryValues) {
        cases.push({ ...base(`query ${name}`, m.name), query: `${name}=${m.value}`, nulField: m.nul ? { location: 'query', path: name } : undefined });
      }
      cases.push({ ...base(`query ${name}`, 'repeated'), query: `${name}=a&${name}=b` });
    }
  }

  if (op.bodySchema) {
    for (const [path] of fieldPaths(doc, op.bodySchema)) {
      const dotted = path.join('.');
      for (const m of fieldMutations) {
        const mutated = withValue(doc, op.bodySchema, baseBody, path, m.raw === undefined ? m.value : RAW);
        const body = JSON.stringify(mutated).replace(`"${RAW}"`, m.raw ?? '');
        cases.push({ ...base(`body ${dotted}`, m.name), body, nulField: m.nul ? { location: 'body', path: dotted } : undefined });
      }
    }
    for (const key of resolve(doc, op.bodySchema).required ?? []) {
      const without = { ...(baseBody as Record<string, unknown>) };
      delete without[key];
      cases.push({ ...base(`body ${key}`, 'missing required'), body: JSON.stringify(without) });
    }
    const wholeBodies: [string, string | undefined, Record<string, string>][] = [
      ['unknown property', JSON.stringify({ ...(baseBody as object), fuzzUnknown: 'x' }), jsonHeaders],
      ['not JSON', '{"a":', jsonHeaders],
      ['empty', '', jsonHeaders],
      ['JSON null', 'null', jsonHeaders],
      ['JSON array', '[]', jsonHeaders],
      ['JSON string', '"x"', jsonHeaders],
      ['2 MiB', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), jsonHeaders],
      ['text/plain', JSON.stringify(baseBody), { 'content-type': 'text/plain' }],
      ['no content type', JSON.stringify(baseBody), {}],
      ['deeply nested', '['.repeat(100_000) + ']'.repeat(100_000), jsonHeaders],
    ];
    for (const [name, body, headers] of wholeBodies) cases.push({ ...base('body', name), body, headers });
  }

  if (op.method === 'POST') {
    for (const [name, value] of headerMutations) {
      cases.push({ ...base('header Idempotency-Key', name), headers: { ...jsonHeaders, 'idempotency-key': value } });
    }
  }
  return cases;
}
