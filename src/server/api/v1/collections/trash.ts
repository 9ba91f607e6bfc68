import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionDeletedSchema, CollectionIdParamSchema, RestoredSchema, TrashItemParamSchema, TrashListSchema } from '../../../../contract/collections.js';
import { deleteFromTrash, listTrash, restoreFromTrash } from '../../../collections/trash.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { nameTaken } from './folder-docs.js';

const TRASH =
  'Our design (the spec shows no trash): a deleted file or folder of a collection goes to its trash, out of every listing, count, zip, download link and preview at once, and stays restorable for `TRASH_RETENTION_DAYS` (30 by default) before the sweep deletes it and its bytes for good. A folder is one item with everything that was in it.';

export const listCollectionTrashRoute = v1Route({
  method: 'get',
  path: '/collections/{id}/trash',
  operationId: 'listCollectionTrash',
  tags: ['Collections'],
  summary: 'List what is in a collection’s trash',
  description: `Every item in the trash, the latest first, with where it was and when it goes for good. ${TRASH}`,
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(TrashListSchema, 'The trash') },
});

export const restoreFromCollectionTrashRoute = v1Route({
  method: 'post',
  path: '/collections/{id}/trash/{itemId}/restore',
  operationId: 'restoreFromCollectionTrash',
  tags: ['Collections'],
  summary: 'Restore a file or folder from the trash',
  description: `Brings the item back where it was, its bytes untouched: into its folder, or to the top level when that folder is gone or in the trash itself. A folder whose name a new folder took meanwhile is \`409 conflict\` (\`name_taken\`): rename that one first. An id that is not in this collection's trash is \`404\`. ${TRASH}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: TrashItemParamSchema },
  responses: { 200: json(RestoredSchema, 'Restored'), 409: nameTaken },
});

export const deleteFromCollectionTrashRoute = v1Route({
  method: 'delete',
  path: '/collections/{id}/trash/{itemId}',
  operationId: 'deleteFromCollectionTrash',
  tags: ['Collections'],
  summary: 'Delete an item of the trash for good',
  description: `Deletes the item and its stored bytes now, without waiting for the sweep. Nothing is kept. ${TRASH}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: TrashItemParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Deleted for good') },
});

export function registerCollectionTrash(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCollectionTrashRoute, async (c) => c.json({ items: await listTrash(c.var.services, c.var.caller, c.req.valid('param').id) }, 200));
  app.openapi(restoreFromCollectionTrashRoute, async (c) => {
    const { id, itemId } = c.req.valid('param');
    return c.json(await restoreFromTrash(c.var.services, c.var.caller, id, itemId), 200);
  });
  app.openapi(deleteFromCollectionTrashRoute, async (c) => {
    const { id, itemId } = c.req.valid('param');
    return c.json(await deleteFromTrash(c.var.services, c.var.caller, id, itemId), 200);
  });
}
