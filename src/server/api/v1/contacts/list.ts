import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactListQuerySchema, ContactListSchema } from '../../../../contract/contacts.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { listContacts } from '../../../contacts/contacts.js';

export const listContactsRoute = v1Route({
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

export function registerListContacts(app: OpenAPIHono<AppEnv>) {
  app.openapi(listContactsRoute, async (c) => {
    return c.json({ contacts: await listContacts(c.var.services, c.var.caller, c.req.valid('query').q) }, 200);
  });
}
