import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { AddCollectionFilesRequestSchema, CollectionIdParamSchema } from '../../../../contract/collections.js';
import { AddFilesResponseSchema } from '../../../../contract/transfers.js';
import { addCollectionFiles } from '../../../collections/files.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const addCollectionFilesRoute = v1Route({
  method: 'post',
  path: '/collections/{id}/files',
  operationId: 'addCollectionFiles',
  tags: ['Collections'],
  summary: 'Add files to a collection',
  description: [
    'Registers files for upload and returns their upload targets, exactly as for transfers: the same tus endpoint, upload tokens (renewable), exact sizes and CRC-32. `folderId` (our addition) puts them into a folder (absent or null: the top level); each file’s relative `path` is kept as folders under it, created as needed (case-insensitively reusing folders that exist), so a dropped folder keeps its tree.',
    'Each file announces `collection.file_uploaded` once its last byte has arrived (`source` `api` here, `web` from the dashboard). Files registered through the API count toward the month’s upload usage. URL `imports` are refused until URL imports are available on this server.',
  ].join('\n\n'),
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(AddCollectionFilesRequestSchema) },
  responses: {
    201: json(AddFilesResponseSchema, 'Upload targets for the new files'),
    402: json(
      ErrorSchema,
      '`out_of_credit`: API upload usage is past the amount included this month and the prepaid credit cannot pay for these files (the declared sizes of uploads and imports; an import without a size once the allowance is used up). Nothing is registered.',
    ),
  },
});

export function registerAddCollectionFiles(app: OpenAPIHono<AppEnv>) {
  app.openapi(addCollectionFilesRoute, async (c) => c.json(await addCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 201));
}
