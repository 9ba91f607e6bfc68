import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { CreateTransferRequestSchema, CreateTransferResponseSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { createTransfer } from '../../../transfers/drafts.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from './params.js';

export const createTransferRoute = v1Route({
  method: 'post',
  path: '/transfers',
  operationId: 'createTransfer',
  tags: ['Transfers'],
  summary: 'Create a transfer draft',
  description: [
    'Creates a draft with its files and returns one upload target per file. Stream each file to `tusEndpoint` with the tus protocol, sending its `uploadToken` as header `x-service-upload-token`; the upload must be exactly the registered size. Then finalize the draft to send it. An unsent draft is deleted after 24 hours.',
    'Our choices beyond the spec: `recipients` (emailed a personal link when sent), `message`, `password`, `expiresAt` (paid plan; the free plan\'s expiry is fixed, see `GET /me`), `maxDownloads`; file entries take `name`, `size`, optional `mimeType` and `path`. File names are cleaned of control characters and bidirectional overrides. The files must fit the plan\'s size ceiling (`maxBytes`).',
    'Bytes registered through the API count toward the month\'s API upload usage: past the included volume they are paid from prepaid credit, checked here before any byte is accepted (`402 out_of_credit`). Each `imports` entry is fetched by the service from its URL (`https` only; see ImportRequest) and followed with `GET /imports/{fileId}`; its declared size is charged here like an upload, and one without a size is refused with `402` when the allowance is already used up. An end-to-end encrypted transfer (`e2ee: true`) takes no title, imports, recipients or password. Listing recipients needs a credential that may email (`403 insufficient_scope` otherwise).',
  ].join('\n\n'),
  scope: 'transfers:write',
  request: jsonBody(CreateTransferRequestSchema),
  responses: {
    201: json(CreateTransferResponseSchema, 'The draft, where to upload, and one upload target per file'),
    402: json(ErrorSchema, '`out_of_credit`: API upload usage is past the amount included this month and the prepaid credit cannot pay for these files (the declared sizes of uploads and imports; an import without a size once the allowance is used up). Nothing is registered. `upgrade_required`: `expiresAt` was given on the free plan, whose expiry is fixed.'),
  },
});

export function registerCreateTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(createTransferRoute, async (c) => c.json(await createTransfer(c.var.services, c.var.caller, c.req.valid('json')), 201));
}
