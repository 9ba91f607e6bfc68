import type { OpenAPIHono } from '@hono/zod-openapi';
import { TransferDownloadsSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { listTransferDownloads } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json, TransferIdParams } from './params.js';

export const listTransferDownloadsRoute = v1Route({
  method: 'get',
  path: '/transfers/{id}/downloads',
  operationId: 'listTransferDownloads',
  tags: ['Transfers'],
  summary: 'Download receipts',
  description:
    'The 200 most recent download events, newest first (one per file or zip download started; a page visit shares one `sessionId`), the recipients with `notifiedAt`, `downloaded` and bounce data, and `totalDownloads`: every download event ever recorded for the transfer.',
  scope: 'transfers:read',
  role: 'own',
  request: { params: TransferIdParams },
  responses: { 200: json(TransferDownloadsSchema, 'Receipts and recipients') },
});


export function registerListTransferDownloads(app: OpenAPIHono<AppEnv>) {
  app.openapi(listTransferDownloadsRoute, async (c) => {
    return c.json(await listTransferDownloads(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
