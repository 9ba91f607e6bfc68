import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@hono/zod-openapi';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

/**
 * The contract's zod schemas as the MCP SDK takes them (standard schemas with their JSON Schema), so a
 * tool's input and output are the API operation's, defined once:
 * - the JSON Schema is zod's own, with the `.openapi()` descriptions and examples put back (zod's
 *   converter does not see them: they live in zod-to-openapi's registry);
 * - query fields that are decimal strings to zod but numbers or booleans in OpenAPI (`limit`) are
 *   offered to assistants as such, and turned back into strings when the call is dispatched;
 * - every call's arguments are checked against the same schemas before anything runs (`checkArguments`):
 *   an unknown argument, a wrong type or a path argument that is not an id of its kind is refused
 *   naming the argument, so no text a model puts in an argument can reach another operation.
 */

type Meta = Record<string, unknown> & { description?: string; example?: unknown; type?: string; minimum?: number; maximum?: number; param?: { in?: string } };
const openapiMeta = (schema: z.ZodType): Meta | undefined => zodToOpenAPIRegistry.get(schema as never) as Meta | undefined;

/** A registry view that gives zod's converter only what JSON Schema has a place for. */
const describedRegistry = {
  get(schema: z.ZodType) {
    const meta = openapiMeta(schema);
    if (!meta) return undefined;
    return { ...(meta.description ? { description: meta.description } : {}), ...(meta.example !== undefined ? { examples: [meta.example] } : {}) };
  },
  has: (schema: z.ZodType) => openapiMeta(schema) !== undefined,
} as unknown as z.core.$ZodRegistry<Record<string, unknown>>;

/** JSON Schemas are made once per process (the stateless server is built again for every request). */
function once(make: () => Record<string, unknown>) {
  let made: Record<string, unknown> | undefined;
  return () => structuredClone((made ??= make()));
}

interface InnerDef {
  _zod?: { def?: { innerType?: unknown } };
}

/** Query fields whose zod input is a string but whose OpenAPI type is a number or a boolean. */
function typedQueryFields(shape: Record<string, z.ZodType>): Map<string, Meta> {
  const typed = new Map<string, Meta>();
  for (const [name, schema] of Object.entries(shape)) {
    let meta: Meta | undefined;
    for (let at: unknown = schema; at && !meta?.type; at = (at as InnerDef)._zod?.def?.innerType) meta = openapiMeta(at as z.ZodType) ?? meta;
    if (meta?.param?.in === 'query' && (meta.type === 'integer' || meta.type === 'number' || meta.type === 'boolean')) typed.set(name, meta);
  }
  return typed;
}

export type ArgumentPart = 'params' | 'query' | 'body';

export interface ToolInput extends StandardSchemaWithJSON {
  /** Where each argument goes in the API request. */
  readonly parts: Readonly<Record<string, ArgumentPart>>;
  /** The arguments as the tool takes them: strict (no unknown names), with JSON numbers and booleans for typed query fields. */
  readonly arguments: z.ZodType;
}

/** One refused argument: its dotted path (empty for the argument object itself) and why. */
export interface ArgumentProblem {
  path: string;
  message: string;
}

/** A path argument: only an id of its own kind (`tr_…`), so it can never name another path. */
function pathArgument(schema: z.ZodType): z.ZodType {
  const example = openapiMeta(schema)?.example;
  const expected = `an id such as ${typeof example === 'string' ? example : 'the one a list returned'}`;
  return z.custom<string>((value) => schema.safeParse(value).success, {
    error: (issue) => (issue.input === undefined ? `required: ${expected}` : `must be ${expected}`),
  });
}

/** A typed query field as the JSON value an assistant sends (a number, a boolean), with the bounds the OpenAPI document gives it. */
function typedArgument(meta: Meta, optional: boolean): z.ZodType {
  let typed: z.ZodType;
  if (meta.type === 'boolean') typed = z.boolean();
  else {
    let number = meta.type === 'integer' ? z.number().int() : z.number();
    if (meta.minimum !== undefined) number = number.min(meta.minimum);
    if (meta.maximum !== undefined) number = number.max(meta.maximum);
    typed = number;
  }
  return optional ? typed.optional() : typed;
}

/** Checks a call's arguments against its tool's schema: the problems, each naming its argument, or none. */
export function checkArguments(input: ToolInput, args: unknown): ArgumentProblem[] {
  const parsed = input.arguments.safeParse(args ?? {});
  if (parsed.success) return [];
  const names = Object.keys(input.parts);
  return parsed.error.issues.flatMap((issue): ArgumentProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      const known = names.length > 0 ? `its arguments are ${names.join(', ')}` : 'it takes no arguments';
      return issue.keys.map((key) => ({ path: [...issue.path.map(String), key].join('.'), message: `not an argument of this tool (${known})` }));
    }
    return [{ path: issue.path.map(String).join('.'), message: issue.message }];
  });
}

/** One flat argument object from an operation's path parameters, query and JSON body (a name in two parts is a setup error). */
export function toolInput(request: { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodType }, extra: Record<string, z.ZodType> = {}): ToolInput {
  const parts: Record<string, ArgumentPart> = {};
  const shape: Record<string, z.ZodType> = {};
  const bodyShape = request.body && 'shape' in request.body ? (request.body as z.ZodObject).shape : {};
  for (const [part, fields] of [['params', request.params?.shape ?? {}], ['query', request.query?.shape ?? {}], ['body', bodyShape]] as const) {
    for (const [name, schema] of Object.entries(fields)) {
      if (name in shape) throw new Error(`argument ${name} is in both ${parts[name]} and ${part}`);
      shape[name] = schema as z.ZodType;
      parts[name] = part;
    }
  }
  Object.assign(shape, extra);
  const combined = z.strictObject(shape);
  const typed = typedQueryFields(Object.fromEntries(Object.entries(shape).filter(([name]) => parts[name] === 'query')));
  const argumentShape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const meta = typed.get(name);
    if (meta) argumentShape[name] = typedArgument(meta, schema.safeParse(undefined).success);
    else if (parts[name] === 'params') argumentShape[name] = pathArgument(schema);
    else argumentShape[name] = schema;
  }
  const jsonSchema = (io: 'input' | 'output') =>
    once(
      () =>
        z.toJSONSchema(combined, {
          target: 'draft-2020-12',
          io,
          metadata: describedRegistry,
          override: (ctx) => {
            for (const [name, meta] of typed) {
              if ((ctx.zodSchema as unknown) !== shape[name]) continue;
              const target = ctx.jsonSchema as Record<string, unknown>;
              for (const key of Object.keys(target)) delete target[key];
              Object.assign(target, { type: meta.type, minimum: meta.minimum, maximum: meta.maximum, description: meta.description });
            }
          },
        }) as Record<string, unknown>,
    );
  const input = jsonSchema('input');
  const output = jsonSchema('output');
  return {
    parts,
    arguments: z.strictObject(argumentShape),
    '~standard': {
      version: 1,
      vendor: 'parcel-contract',
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value) ? { value } : { issues: [{ message: 'The arguments must be an object' }] },
      jsonSchema: { input, output },
    },
  } as unknown as ToolInput;
}

/** An operation's success answer as a tool's output schema: validated by the SDK against what the API answered. */
export function toolOutput(schema: z.ZodType): StandardSchemaWithJSON {
  const jsonSchema = (io: 'input' | 'output') =>
    once(() => z.toJSONSchema(schema, { target: 'draft-2020-12', io, metadata: describedRegistry }) as Record<string, unknown>);
  return { '~standard': { ...schema['~standard'], jsonSchema: { input: jsonSchema('input'), output: jsonSchema('output') } } } as unknown as StandardSchemaWithJSON;
}
