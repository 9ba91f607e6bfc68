import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import {
  AddCollectionFilesRequestSchema,
  CollectionFileIdParamSchema,
  CollectionFilePageSchema,
  CollectionFileResponseSchema,
  CollectionFilesQuerySchema,
  CollectionIdParamSchema,
  DeleteCollectionFilesRequestSchema,
  DeletedCountSchema,
  UpdateCollectionFileRequestSchema,
} from '../../../../contract/collections.js';
import { AddFilesResponseSchema } from '../../../../contract/transfers.js';
import { addCollectionFiles, deleteCollectionFiles, listCollectionFiles, updateCollectionFile } from '../../../collections/files.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

const list = v1Route({
  method: 'get',
  path: '/collections/{id}/files',
  operationId: 'listCollectionFiles',
  tags: ['Collections'],
  summary: 'List a collection’s files',
  description:
    'Oldest first (registration order), every file of the collection whatever folder it is in, with its `folderId`. Without `limit`, every file at once and `nextCursor` null; with `limit` (1 to 1000), a page and a cursor for the next one (our design: the spec leaves the wrapper open; it is `files`). A cursor is bound to its collection and workspace. `state` (our addition) tells uploads still under way from complete files. Files an upload request’s uploader added but has not sent are listed here, to the owner only, with `unsent: true` (our addition): visitors, guests, zips and download links never hold them until the submission is sent or published. With `thumbnails=true` (our addition) each file also has `thumbnailUrl`: its image preview at a signed URL valid an hour (the same `/thumb/` links visitors get), or null when it has none (yet); ask again for fresh URLs.',
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, query: CollectionFilesQuerySchema },
  responses: { 200: json(CollectionFilePageSchema, 'The files, oldest first') },
});

const add = v1Route({
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

const update = v1Route({
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

const remove = v1Route({
  method: 'delete',
  path: '/collections/{id}/files',
  operationId: 'deleteCollectionFiles',
  tags: ['Collections'],
  summary: 'Delete files from a collection',
  description:
    'Deletes the files named in `fileIds` (1 to 500) with their stored bytes and previews; ids that name no file of this collection are skipped, and `deleted` says how many went. A deleted cover leaves the collection without one. An upload still under way for a deleted file is refused from then on.',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(DeleteCollectionFilesRequestSchema) },
  responses: { 200: json(DeletedCountSchema, 'How many files were deleted') },
});

/** The files of a collection: listed, added (uploaded through tus), renamed or moved, deleted. */
export function registerCollectionFiles(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => c.json(await listCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(add, async (c) => c.json(await addCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 201));
  app.openapi(update, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json({ file: await updateCollectionFile(c.var.services, c.var.caller, id, fileId, c.req.valid('json')) }, 200);
  });
  app.openapi(remove, async (c) =>
    c.json(await deleteCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json').fileIds), 200),
  );
}
