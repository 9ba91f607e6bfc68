import type { Context } from 'hono';
import type { z } from 'zod';
import { resourceIdPattern } from '../../contract/ids.js';
import { ApiError, invalidInput, notFound, validationError } from '../core/errors.js';
import { said } from '../core/sentences.js';

/**
 * Parses a JSON body against a contract schema, answering `400 invalid_request` that names each
 * bad field. With `optional`, an empty body reads as `{}`.
 */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S, options: { optional?: boolean } = {}): Promise<z.output<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = options.optional && text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', said({ id: 'api.request.requestBodyMustValid', defaultMessage: 'The request body must be valid JSON' }), { location: 'body', fields: [] });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error.issues, 'body');
  assertStorableText(parsed.data, 'body');
  return parsed.data;
}

/**
 * A resource id from the path (`prefix_` and base62, as the contract's ids are), or 404 naming
 * `what`: an id that cannot exist is not found, exactly like one that does not, as in /api/v1.
 */
export function pathId(c: Context, name: string, prefix: string, what: string): string {
  const id = c.req.param(name) ?? '';
  if (!resourceIdPattern(prefix).test(id)) {
    throw notFound(
      said(
        {
          id: 'api.request.pathIdNotFound',
          defaultMessage:
            '{what, select, Member {Member not found} Invitation {Invitation not found} Session {Session not found} Passkey {Passkey not found} Item {Item not found} Folder {Folder not found} Note {Note not found} Person {Person not found} Workspace {Workspace not found} other {{what} not found}}',
          description: 'what: the kind of thing the path names',
        },
        { what },
      ),
    );
  }
  return id;
}

/** Parses the query string against a contract schema, answering `400 invalid_request` that names each bad parameter. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw validationError(parsed.error.issues, 'query');
  assertStorableText(parsed.data, 'query');
  return parsed.data;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in validated input (a string or an object
 * key, however deep) is refused here as `400 invalid_request` naming the field, instead of failing
 * later as a database error. Every validated input passes through this: the v1 validation hook and
 * `parseJsonBody` call it on what the schema accepted.
 */
export function assertStorableText(value: unknown, location: string): void {
  // Iterative, so no input shape can exhaust the stack.
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw nulError(path, location);
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => pending.push([item, [...path, i]]));
    } else if (current !== null && typeof current === 'object' && !(current instanceof Date)) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) throw nulError(path, location);
        pending.push([item, [...path, key]]);
      }
    }
  }
}

function nulError(path: (string | number)[], location: string): ApiError {
  const name = path.map(String).join('.') || location;
  return new ApiError('invalid_request', invalidInput(location, name, said({ id: 'api.request.nulCharacters', defaultMessage: 'must not contain NUL characters' })), {
    location,
    fields: [{ path: name, message: 'must not contain NUL characters' }],
  });
}
