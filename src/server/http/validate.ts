import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, validationError } from './errors.js';

/** Parses a JSON body against a contract schema, answering `400 invalid_request` that names each bad field. */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiError('invalid_request', 'The request body must be valid JSON', { location: 'body', fields: [] });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error.issues, 'body');
  return parsed.data;
}
