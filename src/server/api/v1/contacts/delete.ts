import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactDeletedSchema, ContactIdParamSchema } from '../../../../contract/contacts.js';
import { deleteContact } from '../../../contacts/contacts.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

export const deleteContactRoute = v1Route({
  method: 'delete',
  path: '/contacts/{id}',
  operationId: 'deleteContact',
  tags: ['Contacts'],
  summary: 'Delete a contact',
  description:
    'Deletes a contact for good. An unknown id, another workspace\'s, or one already deleted answers `404 not_found`, so a repeated delete is `404`, not `200`.',
  scope: 'contacts:write',
  request: { params: ContactIdParamSchema },
  responses: {
    200: { description: 'The contact is gone', content: { 'application/json': { schema: ContactDeletedSchema } } },
  },
});

export function registerDeleteContact(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteContactRoute, async (c) => {
    return c.json(await deleteContact(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
