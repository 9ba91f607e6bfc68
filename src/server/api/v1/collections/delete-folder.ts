import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionDeletedSchema, FolderIdParamSchema } from '../../../../contract/collections.js';
import { trashCollectionFolder } from '../../../collections/trash.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { OUR_DESIGN, NOT_FOUND } from './folder-docs.js';

export const deleteCollectionFolderRoute = v1Route({
  method: 'delete',
  path: '/collections/{id}/folders/{folderId}',
  operationId: 'deleteCollectionFolder',
  tags: ['Collections'],
  summary: 'Delete a folder',
  description: `Deletes the folder with everything inside it, its subfolders and all their files: they go to the collection's trash as one item (\`GET /collections/{id}/trash\`), out of every listing, zip and link at once, restorable for \`TRASH_RETENTION_DAYS\` (30 by default) before the sweep deletes their bytes. A cover among them is removed from the collection. ${NOT_FOUND} ${OUR_DESIGN}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: FolderIdParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Deleted') },
});

export function registerDeleteCollectionFolder(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteCollectionFolderRoute, async (c) => {
    const { id, folderId } = c.req.valid('param');
    return c.json(await trashCollectionFolder(c.var.services, c.var.caller, id, folderId), 200);
  });
}
