import { z } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import { fieldPaths, synthesize } from '../api/v1/fuzz/cases.js';
import { v1Operations } from '../api/v1/route.js';

/**
 * The server's endpoints as the app registered them (Hono's own route table), for tests that must
 * cover every endpoint, including ones added later, without being edited: method and path pattern
 * (`/api/v1/transfers/:id`) of each, the request schemas where the route table has them (every
 * /api/v1 operation), and a valid request body made from a schema.
 */

export interface Endpoint {
  /** GET, POST, … or ALL for a handler of every method (such as the tus endpoint). */
  method: string;
  /** Hono's pattern: `:name` parameters, `*` wildcards. */
  path: string;
}

/**
 * Every endpoint of the app: each method and path that has a handler, not just middleware. Hono
 * lists middleware (`app.use`) as ALL with a handler that takes `next`; a route's own middleware
 * share its method, and its handler comes last.
 */
export function registeredEndpoints(app: Pick<Hono, 'routes'>): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const route of inspectRoutes(app as Hono)) {
    if (route.isMiddleware && route.method === 'ALL') continue;
    const key = `${route.method} ${route.path}`;
    if (!seen.has(key)) seen.set(key, { method: route.method, path: route.path });
  }
  return [...seen.values()];
}

/** The path parameters of a pattern, in order. */
export const paramsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

export interface RequestSchemas {
  query?: z.ZodType;
  body?: z.ZodType;
}

/** The request schemas of every /api/v1 operation, by `METHOD /api/v1/pattern`, from its route table `v1Operations`. */
export function v1RequestSchemas(): Map<string, RequestSchemas> {
  return new Map(
    v1Operations.map((op) => [`${op.method} /api/v1${op.path.replace(/\{([^}]+)\}/g, ':$1')}`, { query: op.request.query, body: op.request.body }]),
  );
}

const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/**
 * A small value the schema accepts, made from its JSON Schema: its required fields, and when the
 * schema wants more than those (a change must name at least one field), the first optional field
 * that makes it valid.
 */
export function exampleOf(schema: z.ZodType): unknown {
  const json = jsonSchemaOf(schema);
  const required = synthesize(json, json);
  if (schema.safeParse(required).success || !isRecord(required) || !isRecord(json.properties)) return required;
  for (const [name, property] of Object.entries(json.properties)) {
    if (name in required) continue;
    const candidate = { ...required, [name]: synthesize(json, property, name, 1) };
    if (schema.safeParse(candidate).success) return candidate;
  }
  return required;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every field path of a schema, required or not, as dotted names (array items as `0`). */
export function fieldNamesOf(schema: z.ZodType): (string | number)[][] {
  const json = jsonSchemaOf(schema);
  return fieldPaths(json, json).map(([path]) => path);
}

/** A copy of `value` with `replacement` at `path`, creating objects and one-item arrays on the way. */
export function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const root = structuredClone(value ?? {}) as Record<string | number, unknown>;
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]!] = replacement;
  return root;
}
