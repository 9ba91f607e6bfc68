import type { OpenAPIHono } from '@hono/zod-openapi';
import { CreateUploadRequestRequestSchema, UploadRequestResponseSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { createUploadRequest } from '../../../collections/requests/requests.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { PAYLOAD } from './request-docs.js';

export const createUploadRequestRoute = v1Route({
  method: 'post',
  path: '/requests',
  operationId: 'createUploadRequest',
  tags: ['Upload requests'],
  summary: 'Create an upload request',
  description: `A new upload request with an unguessable public link (\`url\`), \`open\` unless created \`paused\`. \`collectionId\` must be a collection of this workspace and \`folderId\` a folder of it (\`400\` naming the field otherwise); a \`deadline\` must be in the future. ${PAYLOAD}`,
  scope: 'collections:write',
  paidOnly: true,
  request: jsonBody(CreateUploadRequestRequestSchema),
  responses: { 201: json(UploadRequestResponseSchema, 'The new upload request') },
});

export function registerCreateUploadRequest(app: OpenAPIHono<AppEnv>) {
  app.openapi(createUploadRequestRoute, async (c) => c.json({ request: await createUploadRequest(c.var.services, c.var.caller, c.req.valid('json')) }, 201));
}
