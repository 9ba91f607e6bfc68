import type { IntlShape } from 'react-intl';
import { currentIntl } from '../../../lib/intl';

/**
 * The parts of an OpenAPI 3.1 document the reference page reads, and small helpers to walk it.
 * Loose on purpose: the page must render whatever the server publishes without crashing.
 */

export interface Reference {
  $ref: string;
}

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  additionalProperties?: boolean | SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  deprecated?: boolean;
  nullable?: boolean;
}

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: SchemaObject;
}

export interface MediaType {
  schema?: SchemaObject;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody | Reference;
  responses?: Record<string, ResponseObject | Reference>;
  security?: SecurityRequirement[];
  'x-required-scope'?: string;
  'x-plan'?: string;
}

export const httpMethods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export type PathItem = Partial<Record<HttpMethod, Operation>> & { parameters?: (Parameter | Reference)[] };

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItem>;
  /** OpenAPI 3.1: requests the service sends to you (webhook events), keyed by event name. */
  webhooks?: Record<string, PathItem>;
  security?: SecurityRequirement[];
  components?: {
    schemas?: Record<string, SchemaObject>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, RequestBody>;
    responses?: Record<string, ResponseObject>;
    securitySchemes?: Record<string, { type?: string; scheme?: string; description?: string }>;
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isReference(value: unknown): value is Reference {
  return isObject(value) && typeof value.$ref === 'string';
}

/** The last segment of a local `$ref`, e.g. `Account` for `#/components/schemas/Account`. */
export function refName(ref: string): string {
  return decodePointerSegment(ref.split('/').pop() ?? ref);
}

function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Follows a local JSON pointer (`#/…`); remote references are not followed. */
export function followRef(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const segment of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[decodePointerSegment(segment)];
  }
  return node;
}

/** Replaces a reference by what it points at (one level, plus chains), or undefined when broken. */
export function resolve<T extends object>(doc: OpenApiDocument, value: T | Reference | undefined): T | undefined {
  let current: unknown = value;
  for (let hops = 0; isReference(current) && hops < 10; hops += 1) current = followRef(doc, current.$ref);
  return isObject(current) && !isReference(current) ? (current as T) : undefined;
}

export interface ListedOperation {
  id: string;
  method: HttpMethod;
  path: string;
  operation: Operation;
  parameters: Parameter[];
}

function anchorId(method: string, path: string): string {
  return `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-+$/, '');
}

/**
 * Every operation in document order, with path-level parameters merged into its own, then the
 * webhook events (whose "path" is the event name).
 */
export function listOperations(doc: OpenApiDocument): ListedOperation[] {
  const result: ListedOperation[] = [];
  for (const [path, item] of [...Object.entries(doc.paths ?? {}), ...Object.entries(doc.webhooks ?? {})]) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (typeof operation !== 'object' || operation === null) continue;
      const own = (operation.parameters ?? []).map((p) => resolve<Parameter>(doc, p)).filter((p) => p !== undefined);
      const shared = (item.parameters ?? []).map((p) => resolve<Parameter>(doc, p)).filter((p) => p !== undefined);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      result.push({ id: operation.operationId ?? anchorId(method, path), method, path, operation, parameters });
    }
  }
  return result;
}

export interface TagGroup {
  /** The tag's name as the document has it (the section's anchor); `Other` for operations with no tag. */
  name: string;
  /** Operations with no tag, under a heading of the page's own (`name` stays `Other`, so its anchor is the same in every language). */
  untagged?: boolean;
  description?: string;
  operations: ListedOperation[];
}

/** The group of operations with no tag: its anchor (`tag-Other`); its heading is a message of the page. */
const UNTAGGED = 'Other';

/** Operations grouped by their first tag: declared tags first, in order, then any others. */
export function groupByTag(doc: OpenApiDocument, operations: ListedOperation[]): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, { name: tag.name, description: tag.description, operations: [] });
  for (const listed of operations) {
    const tag = listed.operation.tags?.[0];
    const name = tag ?? UNTAGGED;
    let group = groups.get(name);
    if (!group) {
      group = { name, operations: [], ...(tag === undefined ? { untagged: true } : {}) };
      groups.set(name, group);
    }
    group.operations.push(listed);
  }
  return [...groups.values()].filter((group) => group.operations.length > 0);
}

export function tagAnchor(name: string): string {
  return `tag-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

/** Who may call an operation: its declared scope, or the scopes of its security requirements. */
export function describeAccess(doc: OpenApiDocument, operation: Operation, intl: IntlShape): { scope: string; authenticated: boolean } {
  const security = operation.security ?? doc.security;
  const authenticated = security === undefined ? true : security.some((requirement) => Object.keys(requirement).length > 0);
  const declared = operation['x-required-scope'];
  const fromSecurity = [...new Set((security ?? []).flatMap((requirement) => Object.values(requirement).flat()))];
  if (!authenticated) return { scope: intl.formatMessage({ id: 'docs.access.public', defaultMessage: 'None: public' }), authenticated };
  if (declared === 'any' || (!declared && fromSecurity.length === 0)) {
    return { scope: intl.formatMessage({ id: 'docs.access.anyScope', defaultMessage: 'Any scope' }), authenticated };
  }
  return { scope: declared ?? intl.formatList(fromSecurity, { type: 'disjunction' }), authenticated };
}

function withoutNull(schemas: SchemaObject[]): SchemaObject[] {
  return schemas.filter((schema) => schema.type !== 'null');
}

/** A short type such as `string (date-time)`, `array of Scope`, `integer | null`. */
export function typeLabel(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): string {
  if (!schema || depth > 5) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((variant) => typeLabel(doc, variant, depth + 1)))].join(' | ');
  if (schema.allOf) {
    return schema.allOf.length === 1 ? typeLabel(doc, schema.allOf[0], depth + 1) : 'object';
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  const labels = types.map((type) => {
    // JSON Schema's type names (`string`, `object`, `null`) are the document's; "array of" and "map of" are the page's words.
    if (type === 'array') {
      return currentIntl().formatMessage({ id: 'docs.type.arrayOf', defaultMessage: 'array of {type}' }, { type: typeLabel(doc, schema.items, depth + 1) });
    }
    if (type === 'object' && !schema.properties && isObject(schema.additionalProperties)) {
      return currentIntl().formatMessage({ id: 'docs.type.mapOf', defaultMessage: 'map of {type}' }, { type: typeLabel(doc, schema.additionalProperties, depth + 1) });
    }
    if (schema.format && type !== 'null') return `${type} (${schema.format})`;
    return type;
  });
  return [...labels.filter((label) => label !== 'null'), ...labels.filter((label) => label === 'null')].join(' | ');
}

/**
 * The object whose properties describe `schema`: references followed, `allOf` merged,
 * a nullable `anyOf` unwrapped. Undefined when the schema is not an object with properties.
 */
export function objectShape(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  const resolved = resolve<SchemaObject>(doc, schema);
  if (!resolved) return undefined;
  if (resolved.properties) return resolved;
  if (resolved.allOf) {
    const parts = resolved.allOf.map((part) => objectShape(doc, part)).filter((part) => part !== undefined);
    if (parts.length === 0) return undefined;
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties)),
      required: parts.flatMap((part) => part.required ?? []),
    };
  }
  const variants = withoutNull(resolved.anyOf ?? resolved.oneOf ?? []);
  if (variants.length === 1) return objectShape(doc, variants[0]);
  return undefined;
}

export interface PropertyRow {
  /** Dotted location, e.g. `plan.limits.monthlyCalls`; array items show as `files[].name`. */
  path: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  schema: SchemaObject;
}

/**
 * Flattens an object schema into rows, nesting into object properties and arrays of objects.
 * A schema already being expanded further up is not expanded again (recursive schemas).
 */
export function propertyRows(doc: OpenApiDocument, schema: SchemaObject | undefined, maxDepth = 4): PropertyRow[] {
  const rows: PropertyRow[] = [];
  const walk = (current: SchemaObject | undefined, prefix: string, depth: number, expanding: ReadonlySet<string>) => {
    const shape = objectShape(doc, current);
    if (!shape?.properties || depth > maxDepth) return;
    for (const [name, property] of Object.entries(shape.properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const resolved = resolve<SchemaObject>(doc, property) ?? property;
      rows.push({
        path,
        name,
        depth,
        type: typeLabel(doc, property),
        required: shape.required?.includes(name) ?? false,
        schema: { ...resolved, description: property.description ?? resolved.description },
      });
      const ref = property.$ref;
      if (ref && expanding.has(ref)) continue;
      const next = ref ? new Set([...expanding, ref]) : expanding;
      if (objectShape(doc, property)) {
        walk(property, path, depth + 1, next);
      } else {
        const items = resolved.items ?? withoutNull(resolved.anyOf ?? []).find((v) => v.type === 'array')?.items;
        const itemsRef = items?.$ref;
        if (items && !(itemsRef && next.has(itemsRef)) && objectShape(doc, items)) {
          walk(items, `${path}[]`, depth + 1, itemsRef ? new Set([...next, itemsRef]) : next);
        }
      }
    }
  };
  const rootRef = schema?.$ref;
  walk(schema, '', 0, new Set(rootRef ? [rootRef] : []));
  return rows;
}
