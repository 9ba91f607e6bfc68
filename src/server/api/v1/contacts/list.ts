import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { ContactListQuerySchema, ContactListSchema } from '../../../../contract/contacts.js';
import { contacts } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { toContact } from './store.js';

const route = v1Route({
  method: 'get',
  path: '/contacts',
  operationId: 'listContacts',
  tags: ['Contacts'],
  summary: 'List contacts',
  description:
    'Every contact in the workspace in one response (not paginated), or those matching `q`. Ordered by `lastName`, then `firstName`, then `email`, each compared case-insensitively by code point; an empty `lastName` or `firstName` sorts after non-empty ones, and `id` breaks remaining ties.',
  scope: 'contacts:read',
  request: { query: ContactListQuerySchema },
  responses: {
    200: { description: 'The contacts', content: { 'application/json': { schema: ContactListSchema } } },
  },
});

/** `q` is matched literally: the LIKE wildcards and the escape character itself are escaped. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export function registerListContacts(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const { q } = c.req.valid('query');
    const pattern = q ? likeContains(q) : null;
    const matches =
      pattern === null
        ? undefined
        : sql`(concat_ws(' ', ${contacts.firstName}, ${contacts.lastName}) ILIKE ${pattern} ESCAPE '\\'
            OR ${contacts.company} ILIKE ${pattern} ESCAPE '\\'
            OR ${contacts.email} ILIKE ${pattern} ESCAPE '\\')`;
    // Code-point order ("C") after lower-casing, so the order is the same whatever the database locale.
    const rows = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, c.var.caller.workspaceId), matches))
      .orderBy(
        sql`nullif(lower(${contacts.lastName}), '') COLLATE "C" ASC NULLS LAST`,
        sql`nullif(lower(${contacts.firstName}), '') COLLATE "C" ASC NULLS LAST`,
        sql`${contacts.email} COLLATE "C"`,
        contacts.id,
      );
    return c.json({ contacts: rows.map(toContact) }, 200);
  });
}
