import type { OpenAPIHono } from '@hono/zod-openapi';
import { UploadRequestIdParamSchema, UploadRequestResponseSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { getUploadRequest } from '../../../collections/requests/requests.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const getUploadRequestRoute = v1Route({
  method: 'get',
  path: '/requests/{id}',
  operationId: 'getUploadRequest',
  tags: ['Upload requests'],
  summary: 'Read an upload request',
  description: "One upload request with its counts. Another workspace's id answers `404 not_found`.",
  scope: 'collections:read',
  request: { params: UploadRequestIdParamSchema },
  responses: { 200: json(UploadRequestResponseSchema, 'The upload request') },
});

export function registerGetUploadRequest(app: OpenAPIHono<AppEnv>) {
  app.openapi(getUploadRequestRoute, async (c) => c.json({ request: await getUploadRequest(c.var.services, c.var.caller, c.req.valid('param').id) }, 200));
}
