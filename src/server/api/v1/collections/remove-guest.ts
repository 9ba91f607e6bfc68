import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionDeletedSchema, GuestIdParamSchema } from '../../../../contract/collections.js';
import { removeGuest } from '../../../collections/guests.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { NOT_FOUND } from './guest-docs.js';

export const removeCollectionGuestRoute = v1Route({
  method: 'delete',
  path: '/collections/{id}/guests/{guestId}',
  operationId: 'removeCollectionGuest',
  tags: ['Collections'],
  summary: 'Remove a guest from a collection',
  description: `Removes the guest and their unused sign-in links. Their access ends on their next request: their session and every download link made for them stop working (\`410 link_unavailable\`). Inviting the address again makes a new guest. ${NOT_FOUND} Our design: the spec does not show this operation.`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: GuestIdParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Removed') },
});

export function registerRemoveCollectionGuest(app: OpenAPIHono<AppEnv>) {
  app.openapi(removeCollectionGuestRoute, async (c) => {
    const { id, guestId } = c.req.valid('param');
    return c.json(await removeGuest(c.var.services, c.var.caller, id, guestId), 200);
  });
}
