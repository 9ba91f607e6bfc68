import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import type { AppEnv } from '../../../http/env.js';
import { deleteFile } from '../../../transfers/drafts.js';
import { v1Route } from '../route.js';
import { json, TransferFileParams } from './params.js';

export const deleteTransferFileRoute = v1Route({
  method: 'delete',
  path: '/transfers/{id}/files/{fileId}',
  operationId: 'deleteTransferFile',
  tags: ['Transfers'],
  summary: 'Remove a file from a draft',
  description:
    'Removes the file and any bytes already uploaded, such as a file the virus scan found infected, which keeps a draft from being sent. Only for an unsent transfer (`409 conflict`, `details.reason` `transfer_sent`, otherwise). API upload usage already charged for it is not refunded.',
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferFileParams },
  responses: {
    200: json(z.object({ deleted: z.boolean() }).openapi('Deleted'), 'The file is gone'),
    409: json(
      ErrorSchema,
      '`conflict`: the transfer was finalized (`details.reason` `transfer_sent`, also while it waits for its URL imports) or has ended (`transfer_inactive`); files change only on a draft.',
    ),
  },
});

export function registerDeleteTransferFile(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteTransferFileRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json(await deleteFile(c.var.services, c.var.caller, id, fileId), 200);
  });
}
