import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, DeleteCollectionFilesRequestSchema, DeletedCountSchema } from '../../../../contract/collections.js';
import { trashCollectionFiles } from '../../../collections/trash.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const deleteCollectionFilesRoute = v1Route({
  method: 'delete',
  path: '/collections/{id}/files',
  operationId: 'deleteCollectionFiles',
  tags: ['Collections'],
  summary: 'Delete files from a collection',
  description:
    'Deletes the files named in `fileIds` (1 to 500); ids that name no file of this collection are skipped, and `deleted` says how many went. Our design: they go to the collection’s trash (`GET /collections/{id}/trash`), each an item of its own, out of every listing, zip, download link and preview at once and restorable for `TRASH_RETENTION_DAYS` (30 by default), after which the sweep deletes their bytes and previews. A deleted cover leaves the collection without one.',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(DeleteCollectionFilesRequestSchema) },
  responses: { 200: json(DeletedCountSchema, 'How many files were deleted') },
});

export function registerDeleteCollectionFiles(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteCollectionFilesRoute, async (c) =>
    c.json(await trashCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json').fileIds), 200),
  );
}
