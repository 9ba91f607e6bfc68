import { z } from '@hono/zod-openapi';

/** `limit` for a paginated list: an integer from 1 to `max`. Anything else is `400 invalid_request`. */
export function limitParam(max: number, fallback: number): z.ZodDefault<z.ZodCoercedNumber<unknown>>;
export function limitParam(max: number, fallback: undefined): z.ZodOptional<z.ZodCoercedNumber<unknown>>;
export function limitParam(max: number, fallback: number | undefined) {
  const base = z.coerce
    .number({ error: `limit must be an integer from 1 to ${max}` })
    .int({ error: `limit must be an integer from 1 to ${max}` })
    .min(1, { error: `limit must be an integer from 1 to ${max}` })
    .max(max, { error: `limit must be an integer from 1 to ${max}` });
  const described = base.openapi({
    param: { name: 'limit', in: 'query' },
    description: `Page size, 1 to ${max}.${fallback === undefined ? ' Without it, everything is returned.' : ` Defaults to ${fallback}.`}`,
    example: Math.min(50, max),
  });
  return fallback === undefined ? described.optional() : described.default(fallback);
}

export const cursorParam = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .openapi({
    param: { name: 'cursor', in: 'query' },
    description: 'The `nextCursor` of the previous page, passed back unchanged. Opaque; a cursor this list did not issue is `400 invalid_request`.',
  });

export const NextCursorSchema = z
  .string()
  .nullable()
  .openapi({ description: 'Pass as `cursor` to get the next page; null on the last page.', example: null });
