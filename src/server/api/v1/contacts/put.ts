import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactIdParamSchema, ContactInputSchema, ContactResponseSchema } from '../../../../contract/contacts.js';
import { ErrorSchema } from '../../../../contract/errors.js';
import { replaceContact } from '../../../contacts/contacts.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

export const replaceContactRoute = v1Route({
  method: 'put',
  path: '/contacts/{id}',
  operationId: 'replaceContact',
  tags: ['Contacts'],
  summary: 'Replace a contact',
  description:
    'Replaces every field of a contact with the body, which has the same shape as for `createContact`: optional fields left out are reset to "" (and `type` to `person`), not kept. `id` and `createdAt` stay; `updatedAt` moves. An address held by another contact of the workspace answers `409 conflict` with `details.reason` `contact_exists` and `details.contactId`. An unknown id, or another workspace\'s, answers `404 not_found`.',
  scope: 'contacts:write',
  request: {
    params: ContactIdParamSchema,
    body: { required: true, content: { 'application/json': { schema: ContactInputSchema } } },
  },
  responses: {
    200: { description: 'The contact as replaced', content: { 'application/json': { schema: ContactResponseSchema } } },
    409: {
      description: '`conflict` with `details.reason` `contact_exists`: another contact in the workspace has this email address.',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
});

export function registerReplaceContact(app: OpenAPIHono<AppEnv>) {
  app.openapi(replaceContactRoute, async (c) => {
    return c.json({ contact: await replaceContact(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 200);
  });
}
