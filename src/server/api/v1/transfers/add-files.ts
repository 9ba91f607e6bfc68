import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { AddFilesRequestSchema, AddFilesResponseSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { addFiles } from '../../../transfers/drafts.js';
import { v1Route } from '../route.js';
import { json, jsonBody, TransferIdParams } from './params.js';

export const addTransferFilesRoute = v1Route({
  method: 'post',
  path: '/transfers/{id}/files',
  operationId: 'addTransferFiles',
  tags: ['Transfers'],
  summary: 'Add files to a draft',
  description:
    'Registers more files on an unsent transfer and returns their upload targets. A sent transfer answers `409 conflict` with `details.reason` `transfer_sent`. The files must still fit the transfer\'s `maxBytes`.',
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferIdParams, ...jsonBody(AddFilesRequestSchema) },
  responses: {
    201: json(AddFilesResponseSchema, 'Upload targets for the new files'),
    402: json(ErrorSchema, '`out_of_credit`: API upload usage is past the amount included this month and the prepaid credit cannot pay for these files (the declared sizes of uploads and imports; an import without a size once the allowance is used up). Nothing is registered.'),
  },
});

export function registerAddTransferFiles(app: OpenAPIHono<AppEnv>) {
  app.openapi(addTransferFilesRoute, async (c) => c.json(await addFiles(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 201));
}
