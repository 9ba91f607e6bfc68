import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionFilePageSchema, CollectionFilesQuerySchema, CollectionIdParamSchema } from '../../../../contract/collections.js';
import { listCollectionFiles } from '../../../collections/files.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const listCollectionFilesRoute = v1Route({
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

export function registerListCollectionFiles(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCollectionFilesRoute, async (c) => c.json(await listCollectionFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('query')), 200));
}
