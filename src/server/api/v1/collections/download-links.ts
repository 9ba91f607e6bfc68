import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionDownloadLinksQuerySchema, CollectionIdParamSchema } from '../../../../contract/collections.js';
import { DownloadLinksSchema } from '../../../../contract/transfers.js';
import { ownerCollectionDownloadLinks } from '../../../collections/download-links.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const getCollectionDownloadLinksRoute = v1Route({
  method: 'get',
  path: '/collections/{id}/download-links',
  operationId: 'getCollectionDownloadLinks',
  tags: ['Collections'],
  summary: 'Download links for a collection',
  description: [
    'Signed URLs that work for one hour, in the same `DownloadLinks` shape as transfers: one per complete file (with its `crc32` and its folder’s `path` from the top level) and one for all of them as a zip that keeps the folder tree. `folderId` limits both to that folder and everything under it; the zip is then named after the folder and its tree starts inside it. The same streaming ZIP64 engine serves it: exact `Content-Length`, `ETag`, single `Range` and `If-Range`.',
    'Files an upload request’s uploader has not sent yet (`unsent` in the file list) are in neither, as on the visitors’ page: they are the collection’s only once sent or published (`POST /requests/{id}/submissions/{submissionId}/publish`).',
    'Allowed on the free plan, so a workspace whose paid plan lapsed can still take its files out: its collections are kept read-only (every other collection operation answers `402 upgrade_required` until the plan is renewed, and their public links keep working).',
  ].join('\n\n'),
  scope: 'collections:read',
  request: { params: CollectionIdParamSchema, query: CollectionDownloadLinksQuerySchema },
  responses: { 200: json(DownloadLinksSchema, 'Signed download URLs') },
});

export function registerGetCollectionDownloadLinks(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCollectionDownloadLinksRoute, async (c) =>
    c.json(await ownerCollectionDownloadLinks(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('query').folderId), 200),
  );
}
