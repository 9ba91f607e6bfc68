import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { discardDraft } from '../../../transfers/drafts.js';
import { v1Route } from '../route.js';
import { json, TransferIdParams } from './params.js';

export const discardTransferRoute = v1Route({
  method: 'delete',
  path: '/transfers/{id}',
  operationId: 'discardTransfer',
  tags: ['Transfers'],
  summary: 'Discard a draft',
  description:
    'Our design: deletes an unsent draft, its files and any bytes already uploaded (unsent drafts are also deleted by themselves after 24 hours). A sent transfer is not deleted but revoked (`POST /transfers/{id}/revoke`); for one this answers `409 conflict` with `details.reason` `transfer_sent`. API upload usage already charged is not refunded.',
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferIdParams },
  responses: {
    200: json(z.object({ deleted: z.literal(true) }).openapi('TransferDiscarded'), 'The draft is gone'),
    409: { description: '`conflict` with `details.reason` `transfer_sent` (revoke it instead) or `transfer_inactive`.' },
  },
});

export function registerDiscardTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(discardTransferRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await discardDraft(c.var.services, c.var.caller, id), 200);
  });
}
