import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, GuestListSchema } from '../../../../contract/collections.js';
import { listGuests } from '../../../collections/guests.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { GUESTS, NOT_FOUND } from './guest-docs.js';

export const listCollectionGuestsRoute = v1Route({
  method: 'get',
  path: '/collections/{id}/guests',
  operationId: 'listCollectionGuests',
  tags: ['Collections'],
  summary: 'List the guests of a collection',
  description: `Every guest of the collection in one response, in the order they were invited (\`invitedAt\`; addresses invited together in alphabetical order), with when each last visited (\`lastVisitAt\`, null before their first sign-in; updated at most once a minute). ${GUESTS} ${NOT_FOUND} Our design: the spec does not show this operation.`,
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(GuestListSchema, 'The guests') },
});

export function registerListCollectionGuests(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCollectionGuestsRoute, async (c) => {
    return c.json({ guests: await listGuests(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
}
