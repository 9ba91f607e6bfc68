import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  CollectionDeletedSchema,
  CollectionIdParamSchema,
  CreateFolderRequestSchema,
  FolderIdParamSchema,
  FolderListSchema,
  FolderResponseSchema,
  UpdateFolderRequestSchema,
} from '../../../../contract/collections.js';
import { ErrorSchema } from '../../../../contract/errors.js';
import { createFolder, deleteFolder, listFolders, updateFolder } from '../../../collections/folders.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

const OUR_DESIGN = 'Our design: the spec shows only the creation of a folder.';
const NAMES =
  'Names are cleaned like file names (control characters and bidirectional overrides removed, no slashes, not `.` or `..`) and are unique among siblings regardless of case: a clash answers `409 conflict` with `details.reason` `name_taken`.';
const PATHS =
  '`path` is the slash-separated names from the top level and `depth` the number of folders above (0 at the top); a path longer than 1024 bytes is `400`.';
const NOT_FOUND = "A folder of another collection, or another workspace's collection, answers `404 not_found`.";

const nameTaken = {
  description: '`conflict` with `details.reason` `name_taken`: a sibling already has this name (compared regardless of case).',
  content: { 'application/json': { schema: ErrorSchema } },
};

const list = v1Route({
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

const create = v1Route({
  method: 'post',
  path: '/collections/{id}/folders',
  operationId: 'createCollectionFolder',
  tags: ['Collections'],
  summary: 'Create a folder',
  description: `A new, empty folder at the top level (\`parentId\` absent or \`null\`) or inside \`parentId\`; a \`parentId\` that is not a folder of this collection is \`400\` naming \`parentId\`. ${NAMES} ${PATHS} The body and the answer are the spec's; these rules are our design.`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(CreateFolderRequestSchema) },
  responses: { 201: json(FolderResponseSchema, 'The new folder'), 409: nameTaken },
});

const update = v1Route({
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

const remove = v1Route({
  method: 'delete',
  path: '/collections/{id}/folders/{folderId}',
  operationId: 'deleteCollectionFolder',
  tags: ['Collections'],
  summary: 'Delete a folder',
  description: `Deletes the folder with everything inside it: its subfolders and all their files, whose bytes are deleted from storage (a cover among them is removed from the collection). Nothing is kept for undo. ${NOT_FOUND} ${OUR_DESIGN}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: FolderIdParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Deleted') },
});

/** The folders of a collection: list, create, rename or move, delete. */
export function registerFolders(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => {
    return c.json({ folders: await listFolders(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
  app.openapi(create, async (c) => {
    return c.json({ folder: await createFolder(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 201);
  });
  app.openapi(update, async (c) => {
    const { id, folderId } = c.req.valid('param');
    return c.json({ folder: await updateFolder(c.var.services, c.var.caller, id, folderId, c.req.valid('json')) }, 200);
  });
  app.openapi(remove, async (c) => {
    const { id, folderId } = c.req.valid('param');
    return c.json(await deleteFolder(c.var.services, c.var.caller, id, folderId), 200);
  });
}
