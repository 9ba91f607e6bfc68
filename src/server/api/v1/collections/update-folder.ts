import type { OpenAPIHono } from '@hono/zod-openapi';
import { FolderIdParamSchema, FolderResponseSchema, UpdateFolderRequestSchema } from '../../../../contract/collections.js';
import { updateFolder } from '../../../collections/folders.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { OUR_DESIGN, NAMES, NOT_FOUND, nameTaken } from './folder-docs.js';

export const updateCollectionFolderRoute = v1Route({
  method: 'patch',
  path: '/collections/{id}/folders/{folderId}',
  operationId: 'updateCollectionFolder',
  tags: ['Collections'],
  summary: 'Rename or move a folder',
  description: `Renames the folder (\`name\`) and/or moves it with everything inside it (\`parentId\`; \`null\` is the top level); only the fields given change. The \`path\` and \`depth\` of the folder and of every folder under it change with it, in one statement. Moving a folder into itself or into a folder inside it is \`400\` naming \`parentId\` (folders never form a cycle), as is a \`parentId\` that is not a folder of this collection. ${NAMES} The files inside stay in their folders. ${NOT_FOUND} ${OUR_DESIGN}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: FolderIdParamSchema, ...jsonBody(UpdateFolderRequestSchema) },
  responses: { 200: json(FolderResponseSchema, 'The folder as changed'), 409: nameTaken },
});

export function registerUpdateCollectionFolder(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateCollectionFolderRoute, async (c) => {
    const { id, folderId } = c.req.valid('param');
    return c.json({ folder: await updateFolder(c.var.services, c.var.caller, id, folderId, c.req.valid('json')) }, 200);
  });
}
