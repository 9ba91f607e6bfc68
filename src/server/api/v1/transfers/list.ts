import type { OpenAPIHono } from '@hono/zod-openapi';
import { TransferListQuerySchema, TransferListSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { listTransfers } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json } from './params.js';

export const listTransfersRoute = v1Route({
  method: 'get',
  path: '/transfers',
  operationId: 'listTransfers',
  tags: ['Transfers'],
  summary: 'List transfers',
  description:
    'Newest first, drafts included, paginated (`limit` 1 to 500, default 100). The order is by creation time and id, so pages stay stable while new transfers are created. `status` and `q` (our additions) filter by state, and by text in the title or any file name (case-insensitive, matched literally); a cursor stays valid across filters. `sort` (our addition) orders by size or expiry instead; a cursor is bound to its order.',
  scope: 'transfers:read',
  request: { query: TransferListQuerySchema },
  responses: { 200: json(TransferListSchema, 'A page of transfers') },
});

export function registerListTransfers(app: OpenAPIHono<AppEnv>) {
  app.openapi(listTransfersRoute, async (c) => {
    return c.json(await listTransfers(c.var.services, c.var.caller, c.req.valid('query')), 200);
  });
}
