import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionFileIdParamSchema, CollectionFileResponseSchema, UpdateCollectionFileRequestSchema } from '../../../../contract/collections.js';
import { updateCollectionFile } from '../../../collections/files.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const updateCollectionFileRoute = v1Route({
  method: 'patch',
  path: '/collections/{id}/files/{fileId}',
  operationId: 'updateCollectionFile',
  tags: ['Collections'],
  summary: 'Rename or move a file',
  description:
    'Changes only the fields given: `name` (cleaned like an uploaded file’s name) and `folderId` (`null` moves it to the top level; a folder of another collection is `400` naming `folderId`). Our design: the spec does not show this operation.',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionFileIdParamSchema, ...jsonBody(UpdateCollectionFileRequestSchema) },
  responses: { 200: json(CollectionFileResponseSchema, 'The file as changed') },
});

export function registerUpdateCollectionFile(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateCollectionFileRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json({ file: await updateCollectionFile(c.var.services, c.var.caller, id, fileId, c.req.valid('json')) }, 200);
  });
}
