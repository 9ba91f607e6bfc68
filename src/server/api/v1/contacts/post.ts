import { ErrorSchema } from '../../../../contract/errors.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ContactInputSchema, ContactResponseSchema } from '../../../../contract/contacts.js';
import { createContact } from '../../../contacts/contacts.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

export const createContactRoute = v1Route({
  method: 'post',
  path: '/contacts',
  operationId: 'createContact',
  tags: ['Contacts'],
  summary: 'Create a contact',
  description:
    'Adds a contact to the workspace address book. Only `email` is required; other text fields default to "" and `type` to `person`. An address already in the workspace (compared case-insensitively) answers `409 conflict` with `details.reason` `contact_exists` and `details.contactId`, the contact that holds it.',
  scope: 'contacts:write',
  request: {
    body: { required: true, content: { 'application/json': { schema: ContactInputSchema } } },
  },
  responses: {
    201: { description: 'The new contact', content: { 'application/json': { schema: ContactResponseSchema } } },
    409: {
      description: '`conflict` with `details.reason` `contact_exists` and `details.contactId`: the address is already in the workspace.',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
});

export function registerCreateContact(app: OpenAPIHono<AppEnv>) {
  app.openapi(createContactRoute, async (c) => {
    return c.json({ contact: await createContact(c.var.services, c.var.caller, c.req.valid('json')) }, 201);
  });
}
