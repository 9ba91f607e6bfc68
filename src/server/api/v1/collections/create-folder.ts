import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, CreateFolderRequestSchema, FolderResponseSchema } from '../../../../contract/collections.js';
import { createFolder } from '../../../collections/folders.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { NAMES, PATHS, nameTaken } from './folder-docs.js';

export const createCollectionFolderRoute = v1Route({
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

export function registerCreateCollectionFolder(app: OpenAPIHono<AppEnv>) {
  app.openapi(createCollectionFolderRoute, async (c) => {
    return c.json({ folder: await createFolder(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 201);
  });
}
