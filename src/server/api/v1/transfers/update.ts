import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { TransferSchema, UpdateTransferRequestSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { updateTransfer } from '../../../transfers/manage.js';
import { v1Route } from '../route.js';
import { json, jsonBody, TransferIdParams } from './params.js';

export const updateTransferRoute = v1Route({
  method: 'patch',
  path: '/transfers/{id}',
  operationId: 'updateTransfer',
  tags: ['Transfers'],
  summary: 'Change a transfer',
  description: [
    'Our design for amending a transfer. Before or after sending: `expiresAt` (paid plan, within the plan\'s range; `402 upgrade_required` on the free plan; moving it re-arms the `transfer.expiring` warning) and `maxDownloads` (null removes the limit), and `notifications` (which mails the workspace gets about it).',
    'While it is a draft: `title`, `message`, `recipients` (replaces the list) and `password` (null removes it), so that a client can start uploading before the sender has finished typing. After sending these answer `409 conflict` with `details.reason` `transfer_sent`. An end-to-end encrypted transfer takes no title, recipients or password. A transfer that has ended answers `409 conflict` with `details.reason` `transfer_inactive`.',
  ].join('\n\n'),
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferIdParams, ...jsonBody(UpdateTransferRequestSchema) },
  responses: {
    200: json(TransferSchema, 'The changed transfer'),
    402: json(ErrorSchema, '`upgrade_required`: `expiresAt` was given on the free plan, whose expiry is fixed.'),
    409: json(
      ErrorSchema,
      '`conflict`: the transfer has ended (`details.reason` `transfer_inactive`), or a field only a draft may change was given after it was finalized (`transfer_sent`, naming them in `details.fields`).',
    ),
  },
});


export function registerUpdateTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateTransferRoute, async (c) => {
    return c.json(await updateTransfer(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 200);
  });
}
