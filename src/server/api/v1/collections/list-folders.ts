import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, FolderListSchema } from '../../../../contract/collections.js';
import { listFolders } from '../../../collections/folders.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { OUR_DESIGN, PATHS } from './folder-docs.js';

export const listCollectionFoldersRoute = v1Route({
  method: 'get',
  path: '/collections/{id}/folders',
  operationId: 'listCollectionFolders',
  tags: ['Collections'],
  summary: 'List the folders of a collection',
  description: `Every folder of the collection in one response, depth first by path (a folder, then everything inside it, names compared regardless of case). ${PATHS} ${OUR_DESIGN}`,
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(FolderListSchema, 'The folders') },
});

export function registerListCollectionFolders(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCollectionFoldersRoute, async (c) => {
    return c.json({ folders: await listFolders(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
}
