import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionDeletedSchema, CollectionIdParamSchema } from '../../../../contract/collections.js';
import { deleteCollection } from '../../../collections/collections.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const deleteCollectionRoute = v1Route({
  method: 'delete',
  path: '/collections/{id}',
  operationId: 'deleteCollection',
  tags: ['Collections'],
  summary: 'Delete a collection',
  description:
    'Deletes the collection, its folders, guests and files; the files are deleted from storage and its links stop working (our design: the spec does not show this operation).',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Deleted') },
});

export function registerDeleteCollection(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteCollectionRoute, async (c) => {
    return c.json(await deleteCollection(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
