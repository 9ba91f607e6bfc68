import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { CollectionIdParamSchema, CollectionResponseSchema, UpdateCollectionRequestSchema } from '../../../../contract/collections.js';
import { updateCollection } from '../../../collections/collections.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const updateCollectionRoute = v1Route({
  method: 'patch',
  path: '/collections/{id}',
  operationId: 'updateCollection',
  tags: ['Collections'],
  summary: 'Change a collection',
  description:
    'Changes only the fields given: `title`, `description` (`null` or "" clears it), `visibility`, `password`, `coverFileId` (a complete image file of this collection, `null` removes it; anything else is `400` naming `coverFileId`) `slug` (a readable link name: `/c/spring-lookbook`; every former name keeps redirecting for the collection’s life) and `customLink` (also serve it at `/<slug>` on the workspace’s own domain, `workspace.customDomain` in `GET /me`, once the operator has set one with `npm run admin -- domain set`). A change of visibility or password takes effect on the next request of every visitor, including download links already handed out. Visibility `password` needs a password, sent now or set before; a password with any other visibility is refused (our design: the spec does not show this operation).',
  scope: 'collections:write',
  paidOnly: true,
  request: {
    params: CollectionIdParamSchema,
    ...jsonBody(UpdateCollectionRequestSchema),
  },
  responses: {
    200: json(CollectionResponseSchema, 'The collection as changed'),
    409: {
      description: '`conflict` with `details.reason` `slug_taken`: another collection has or had the readable link name in `slug`.',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
});

export function registerUpdateCollection(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateCollectionRoute, async (c) => {
    return c.json(
      {
        collection: await updateCollection(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')),
      },
      200,
    );
  });
}
