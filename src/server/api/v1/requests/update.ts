import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { UpdateUploadRequestRequestSchema, UploadRequestIdParamSchema, UploadRequestResponseSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { updateUploadRequest } from '../../../collections/requests/requests.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const updateUploadRequestRoute = v1Route({
  method: 'patch',
  path: '/requests/{id}',
  operationId: 'updateUploadRequest',
  tags: ['Upload requests'],
  summary: 'Change, pause, resume or close an upload request',
  description:
    'Changes only the fields given. `status` moves `open` ↔ `paused` (paused: the page refuses new files, uploads already under way may finish) and either → `closed`, which is final: any later change answers `409 conflict` with `details.reason` `closed`. Deleting the collection closes its requests too. Limits and types apply to files added from then on.',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: UploadRequestIdParamSchema, ...jsonBody(UpdateUploadRequestRequestSchema) },
  responses: {
    200: json(UploadRequestResponseSchema, 'The upload request as changed'),
    409: json(
      ErrorSchema,
      '`conflict`: the request is closed, which is final (`details.reason` `closed`), or `status` asks for a move it cannot make (`invalid_transition`, with `details.from` and `details.to`).',
    ),
  },
});

export function registerUpdateUploadRequest(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateUploadRequestRoute, async (c) =>
    c.json({ request: await updateUploadRequest(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 200),
  );
}
