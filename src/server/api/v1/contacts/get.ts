import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactIdParamSchema, ContactResponseSchema } from '../../../../contract/contacts.js';
import { getContact } from '../../../contacts/contacts.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

export const getContactRoute = v1Route({
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
  app.openapi(getContactRoute, async (c) => {
    return c.json({ contact: await getContact(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
}
