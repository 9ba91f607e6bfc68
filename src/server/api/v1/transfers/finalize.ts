import type { OpenAPIHono } from '@hono/zod-openapi';
import { FinalizeTransferRequestSchema, TransferSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { finalizeTransfer } from '../../../transfers/send.js';
import { v1Route } from '../route.js';
import { json, TransferIdParams } from './params.js';

export const finalizeTransferRoute = v1Route({
  method: 'post',
  path: '/transfers/{id}/finalize',
  operationId: 'finalizeTransfer',
  tags: ['Transfers'],
  summary: 'Send a transfer',
  description: [
    'Sends the draft: `finalizedAt` is set, the link goes live, `transfer.ready` is emitted and each recipient is emailed a personal link once. Finalizing again changes nothing and emails nobody. The body is optional: none, an empty one (with or without `Content-Type: application/json`) and `{}` are the same. A draft\'s files are scanned for viruses as soon as each is complete (see `scanResult`); a file still being scanned does not hold sending back, its downloads wait for the scan.',
    'While URL imports of the transfer still run, finalizing records the request and answers `200` with the transfer as it stands: `sendRequestedAt` set, `finalizedAt` still null. Nothing goes out yet; its files and draft fields no longer change, and it is not swept as an unsent draft. When the last import lands (or fails: the transfer goes out with the files that arrived), `finalizedAt` is set, the link goes live, `transfer.ready` is emitted once and recipients are emailed once. Until then its link answers `409 files_arriving` (with `Retry-After`) to `POST /links/resolve` and on the recipient page. Poll `GET /transfers/{id}` or `GET /imports/{fileId}`, or wait for `transfer.ready`.',
    'Refused with `409 conflict` while files are still uploading (`details.reason` `uploads_incomplete`, `details.pendingFileIds`), when the virus scan found malware in a file of the draft (`files_infected`, `details.infectedFileIds` and `details.infectedFileNames`: remove those files with `DELETE /transfers/{id}/files/{fileId}`, then send), when there are no files (`no_files`), or when the transfer has ended (`transfer_inactive`). A transfer with recipients needs a credential that may email: an OAuth app without `transfers:send` gets `403 insufficient_scope`. `e2eeMeta` is only for end-to-end encrypted transfers, and required for them (`400`); an end-to-end encrypted transfer is also refused with `409` (`files_unsealed`, `details.unsealedFileIds`) until every file has its sealed metadata (`POST /transfers/{id}/files/{fileId}/sealed`).',
  ].join('\n\n'),
  scope: 'transfers:write',
  role: 'own',
  request: { params: TransferIdParams, body: { required: false, content: { 'application/json': { schema: FinalizeTransferRequestSchema } } } },
  responses: { 200: json(TransferSchema, 'The sent transfer, or one waiting for its URL imports (`finalizedAt` null, `sendRequestedAt` set)') },
});

export function registerFinalizeTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(finalizeTransferRoute, async (c) => {
    const body = (c.req.valid('json') as { e2eeMeta?: string } | undefined) ?? {};
    return c.json(await finalizeTransfer(c.var.services, c.var.caller, c.req.valid('param').id, body), 200);
  });
}
