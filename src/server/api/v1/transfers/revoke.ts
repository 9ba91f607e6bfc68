import type { OpenAPIHono } from '@hono/zod-openapi';
import { TransferSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { revokeTransfer } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json, TransferIdParams } from './params.js';

export const revokeTransferRoute = v1Route({
  method: 'post',
  path: '/transfers/{id}/revoke',
  operationId: 'revokeTransfer',
  tags: ['Transfers'],
  summary: 'Revoke a transfer',
  description:
    'Our design for revoking: the link stops working at once, the files are deleted, `status` becomes `removed` (so a revoked link reads differently from an expired one), the transfer\'s earlier `transfer.ready`, `transfer.expiring` and `transfer.downloaded` events are deleted and `transfer.expired` is emitted with reason `revoked`. Works on drafts too. Revoking an ended transfer changes nothing.',
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferIdParams },
  responses: { 200: json(TransferSchema, 'The revoked transfer') },
});

export function registerRevokeTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeTransferRoute, async (c) => {
    return c.json(await revokeTransfer(c.var.services, c.var.caller, c.req.valid('param').id), 200);
  });
}
