import type { OpenAPIHono } from '@hono/zod-openapi';
import { GuestIdParamSchema, GuestResponseSchema, UpdateGuestRequestSchema } from '../../../../contract/collections.js';
import { updateGuest } from '../../../collections/guests.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { NOT_FOUND } from './guest-docs.js';

export const updateCollectionGuestRoute = v1Route({
  method: 'patch',
  path: '/collections/{id}/guests/{guestId}',
  operationId: 'updateCollectionGuest',
  tags: ['Collections'],
  summary: 'Change what a guest may do',
  description: `Sets the guest's \`role\`: \`viewer\` (open and download) or \`contributor\` (also upload, into \`uploadFolderId\` and what is under it, or anywhere when it is null or absent; a folder of another collection is \`400\` naming it). It takes effect on the guest's next request. What a contributor uploaded stays when they become a viewer. ${NOT_FOUND} Our design: the spec does not show this operation.`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: GuestIdParamSchema, ...jsonBody(UpdateGuestRequestSchema) },
  responses: { 200: json(GuestResponseSchema, 'The guest as changed') },
});

export function registerUpdateCollectionGuest(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateCollectionGuestRoute, async (c) => {
    const { id, guestId } = c.req.valid('param');
    return c.json({ guest: await updateGuest(c.var.services, c.var.caller, id, guestId, c.req.valid('json')) }, 200);
  });
}
