import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { storeSealedFileMeta } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json, jsonBody, TransferFileParams } from './params.js';

const SealedRequestSchema = z
  .object({
    meta: z.string().min(1).max(8192).openapi({ description: 'The file\'s encrypted name and metadata, sealed in the client.' }),
    thumb: z.string().max(262_144).openapi({ description: 'The encrypted thumbnail, sealed in the client; may be empty.' }),
  })
  .openapi('SealedFileRequest');

export const storeSealedFileMetaRoute = v1Route({
  method: 'post',
  path: '/transfers/{id}/files/{fileId}/sealed',
  operationId: 'storeSealedFileMeta',
  tags: ['Transfers'],
  summary: 'Store a file\'s sealed name and thumbnail',
  description:
    'For end-to-end encrypted transfers only (`409 conflict`, `details.reason` `not_e2ee`, otherwise): stores the encrypted name and thumbnail. The key that opens them never reaches the service. Replaces what was stored before, until the transfer is sent.',
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferFileParams, ...jsonBody(SealedRequestSchema) },
  responses: { 200: json(z.object({ stored: z.boolean() }).openapi('Stored'), 'Stored') },
});

export function registerStoreSealedFileMeta(app: OpenAPIHono<AppEnv>) {
  app.openapi(storeSealedFileMetaRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json(await storeSealedFileMeta(c.var.services, c.var.caller, id, fileId, c.req.valid('json')), 200);
  });
}
