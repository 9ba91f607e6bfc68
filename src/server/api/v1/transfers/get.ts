import type { OpenAPIHono } from '@hono/zod-openapi';
import { TransferQuerySchema, TransferSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { getTransfer } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { TransferIdParams, json } from './params.js';

export const getTransferRoute = v1Route({
  method: 'get',
  path: '/transfers/{id}',
  operationId: 'getTransfer',
  tags: ['Transfers'],
  summary: 'Read a transfer',
  description:
    'Our design for the single-transfer read the spec leaves open: the Transfer with `fileCount`, plus its `files` and `message`. With `thumbnails=true` (our addition) each file also has `thumbnailUrl`: its preview at a signed URL valid an hour, which shows to the workspace even once the download limit is reached (as the owner’s download links do), or null.',
  scope: 'transfers:read',
  request: { params: TransferIdParams, query: TransferQuerySchema },
  responses: { 200: json(TransferSchema, 'The transfer') },
});

export function registerGetTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(getTransferRoute, async (c) => {
    return c.json(await getTransfer(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('query')), 200);
  });
}
