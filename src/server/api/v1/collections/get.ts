import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, CollectionResponseSchema } from '../../../../contract/collections.js';
import { getCollection } from '../../../collections/collections.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const getCollectionRoute = v1Route({
  method: 'get',
  path: '/collections/{id}',
  operationId: 'getCollection',
  tags: ['Collections'],
  summary: 'Read a collection',
  description: "One collection of the workspace, with `fileCount`. Another workspace's id, or an id that is not a collection id, answers `404 not_found`.",
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(CollectionResponseSchema, 'The collection') },
});

export function registerGetCollection(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCollectionRoute, async (c) => {
    return c.json(
      {
        collection: await getCollection(c.var.services, c.var.caller, c.req.valid('param').id),
      },
      200,
    );
  });
}
