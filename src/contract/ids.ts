import { z } from '@hono/zod-openapi';

/**
 * A resource id in a path: its type prefix, `_`, then base62 (ids are `newId(prefix)`). Anything
 * else cannot name a resource, so the v1 validation hook answers it `404 not_found` without a
 * query: a NUL byte, a slug, or another type's id never reaches the database.
 */
export const resourceIdPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9A-Za-z]{1,60}$`);

export const resourceIdParam = (name: string, prefix: string, description: string, example: string) =>
  z
    .string()
    .regex(resourceIdPattern(prefix))
    .openapi({ param: { name, in: 'path' }, description, example });
