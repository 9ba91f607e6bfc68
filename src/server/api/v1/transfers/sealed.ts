import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { transferFiles } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { findTransfer } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { TransferFileParams, json, jsonBody } from './params.js';

const SealedRequestSchema = z
  .object({
    meta: z.string().min(1).max(8192).openapi({ description: 'The file\'s encrypted name and metadata, sealed in the client.' }),
    thumb: z.string().max(262_144).openapi({ description: 'The encrypted thumbnail, sealed in the client; may be empty.' }),
  })
  .openapi('SealedFileRequest');

const route = v1Route({
  method: 'post',
  path: '/transfers/{id}/files/{fileId}/sealed',
  operationId: 'storeSealedFileMeta',
  tags: ['Transfers'],
  summary: 'Store a file\'s sealed name and thumbnail',
  description:
    'For end-to-end encrypted transfers only (`409 conflict`, `details.reason` `not_e2ee`, otherwise): stores the encrypted name and thumbnail. The key that opens them never reaches the service. Replaces what was stored before, until the transfer is sent.',
  scope: 'transfers:write',
  request: { params: TransferFileParams, ...jsonBody(SealedRequestSchema) },
  responses: { 200: json(z.object({ stored: z.boolean() }).openapi('Stored'), 'Stored') },
});

export function registerStoreSealedFileMeta(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const { id, fileId } = c.req.valid('param');
    const { meta, thumb } = c.req.valid('json');
    const t = await findTransfer(db, c.var.caller.workspaceId, id);
    if (!t) throw notFound('Transfer');
    if (!t.e2ee) throw new ApiError('conflict', 'Only end-to-end encrypted transfers store sealed metadata', { reason: 'not_e2ee' });
    if (t.finalizedAt) throw new ApiError('conflict', 'The transfer was already sent', { reason: 'transfer_sent' });
    const updated = await db
      .update(transferFiles)
      .set({ sealedMeta: meta, sealedThumb: thumb })
      .where(and(eq(transferFiles.fileId, fileId), eq(transferFiles.transferId, t.id)))
      .returning({ id: transferFiles.fileId });
    if (updated.length === 0) throw notFound('File');
    return c.json({ stored: true }, 200);
  });
}
