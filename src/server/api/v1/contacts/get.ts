import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactIdParamSchema, ContactResponseSchema } from '../../../../contract/contacts.js';
import { contacts } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { byId, contactNotFound, toContact } from './store.js';

const route = v1Route({
  method: 'get',
  path: '/contacts/{id}',
  operationId: 'getContact',
  tags: ['Contacts'],
  summary: 'Read a contact',
  description: 'One contact. An unknown id, or the id of another workspace\'s contact, answers `404 not_found`.',
  scope: 'contacts:read',
  request: { params: ContactIdParamSchema },
  responses: {
    200: { description: 'The contact', content: { 'application/json': { schema: ContactResponseSchema } } },
  },
});

export function registerGetContact(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const { id } = c.req.valid('param');
    const [row] = await db.select().from(contacts).where(byId(c.var.caller.workspaceId, id));
    if (!row) throw contactNotFound();
    return c.json({ contact: toContact(row) }, 200);
  });
}
