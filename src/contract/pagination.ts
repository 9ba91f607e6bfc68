import { z } from '@hono/zod-openapi';

/**
 * `limit` for a paginated list: an integer from 1 to `max` in plain decimal, as the spec's integer is
 * written. Anything else (`0x10`, `1e2`, ` 10`, `+10`, `1.0`, `010`) is `400 invalid_request`, as the
 * spec's pagination rule 1 says.
 */
export function limitParam(max: number, fallback: number): z.ZodDefault<ReturnType<typeof decimalLimit>>;
export function limitParam(max: number, fallback: undefined): z.ZodOptional<ReturnType<typeof decimalLimit>>;
export function limitParam(max: number, fallback: number | undefined) {
  const described = decimalLimit(max).openapi({
    param: { name: 'limit', in: 'query' },
    type: 'integer',
    minimum: 1,
    maximum: max,
    description: `Page size, 1 to ${max}, in plain decimal digits without leading zeros.${fallback === undefined ? ' Without it, everything is returned.' : ` Defaults to ${fallback}.`}`,
    example: Math.min(50, max),
  });
  return fallback === undefined ? described.optional() : described.default(fallback);
}

function decimalLimit(max: number) {
  return queryInteger('limit', 1, max);
}

/**
 * An integer query parameter from `min` to `max`: plain decimal digits with no sign and no leading
 * zero, so one value has one spelling (`010` is not 10, nor octal 8). Every integer in a query
 * string goes through this.
 */
export function queryInteger(field: string, min: number, max: number) {
  const error = `${field} must be an integer from ${min} to ${max}`;
  return z
    .string({ error })
    .regex(/^(0|[1-9][0-9]{0,14})$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));
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
