import type { OpenAPIHono } from '@hono/zod-openapi';
import { SyncContactsRequestSchema, SyncContactsResponseSchema } from '../../../../contract/contacts.js';
import { syncContacts } from '../../../contacts/contacts.js';
import { creatorOfCaller } from '../../../workspaces/creators.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';

export const syncContactsRoute = v1Route({
  method: 'post',
  path: '/contacts/sync',
  operationId: 'syncContacts',
  tags: ['Contacts'],
  summary: 'Sync contacts in bulk',
  description: [
    "Upserts 1 to 1000 contacts in one call, for keeping the address book in step with another system such as a CRM. Each entry is a `ContactInput` and is matched to the workspace's contacts by `email`, compared case-insensitively (emails are stored trimmed and lower-cased):",
    '',
    '- an address not in the workspace is **created**, made by the caller (`createdBy`, our addition) (counted in `created`);',
    '- a known address is **replaced** entirely by the entry, as `replaceContact` does: optional fields left out are reset to "" (and `type` to `person`), not kept; `id`, `createdAt` and `createdBy` stay and `updatedAt` moves (counted in `updated`);',
    '- a known address whose stored fields already equal the entry is not written and keeps its `updatedAt` (counted in `unchanged`).',
    '',
    'All or nothing: one invalid entry refuses the whole call with `400 invalid_request`, `details.fields` naming each problem as `contacts.<index>.<field>`, and nothing is written. An email that appears twice in one call is refused the same way, naming the second entry (`contacts.<index>.email`, "email repeats entry N of this call"). Contacts not in the call are left as they are (a sync never deletes). `contacts` in the answer are the stored contacts of every entry, in the order of the request. Another workspace\'s contacts are never matched.',
  ].join('\n'),
  scope: 'contacts:write',
  request: {
    body: { required: true, content: { 'application/json': { schema: SyncContactsRequestSchema } } },
  },
  responses: {
    200: {
      description: "How many contacts were created, updated and left unchanged, and every entry's contact as stored, in request order",
      content: { 'application/json': { schema: SyncContactsResponseSchema } },
    },
  },
});

export function registerSyncContacts(app: OpenAPIHono<AppEnv>) {
  app.openapi(syncContactsRoute, async (c) => {
    const { caller } = c.var;
    return c.json(await syncContacts(c.var.services, { workspaceId: caller.workspaceId, creator: creatorOfCaller(caller) }, c.req.valid('json').contacts), 200);
  });
}
