import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { DownloadLinksSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { ownerDownloadLinks } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json, TransferIdParams } from './params.js';

export const getTransferDownloadLinksRoute = v1Route({
  method: 'get',
  path: '/transfers/{id}/download-links',
  operationId: 'getTransferDownloadLinks',
  tags: ['Transfers'],
  summary: 'Download links for your own transfer',
  description: [
    'Signed URLs that work for one hour (never past the transfer\'s expiry): one per uploaded file, with its `crc32`, and one for the whole transfer as a zip. They serve `Content-Length`, `Accept-Ranges: bytes`, `ETag`, single `Range` and `If-Range`, and `Content-Disposition: attachment`. The zip is uncompressed (STORE) and deterministic, so its exact `sizeBytes` is known up front and it resumes like a file; folders come from each file\'s `path`; ZIP64 is used when needed.',
    'Your own downloads create no receipts and do not count toward `maxDownloads`. An end-to-end encrypted transfer answers `409 e2ee_unsupported`; an expired or revoked one `410 link_unavailable`.',
  ].join('\n\n'),
  scope: 'transfers:read',
  role: 'own',
  request: { params: TransferIdParams },
  responses: {
    200: json(DownloadLinksSchema, 'Signed download URLs'),
    409: json(ErrorSchema, '`e2ee_unsupported`: the transfer is end-to-end encrypted.'),
    410: json(ErrorSchema, '`link_unavailable`: the transfer expired or was revoked.'),
  },
});

export function registerGetTransferDownloadLinks(app: OpenAPIHono<AppEnv>) {
  app.openapi(getTransferDownloadLinksRoute, async (c) => {
    return c.json(await ownerDownloadLinks(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
