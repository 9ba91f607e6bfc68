import type { OpenAPIHono } from '@hono/zod-openapi';
import { UploadRequestListSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { listUploadRequests } from '../../../collections/requests/requests.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';
import { PAYLOAD } from './request-docs.js';

export const listUploadRequestsRoute = v1Route({
  method: 'get',
  path: '/requests',
  operationId: 'listUploadRequests',
  tags: ['Upload requests'],
  summary: 'List upload requests',
  description: `Every upload request of the workspace in one response, newest first. ${PAYLOAD}`,
  scope: 'collections:read',
  responses: { 200: json(UploadRequestListSchema, 'The upload requests') },
});

export function registerListUploadRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(listUploadRequestsRoute, async (c) => c.json({ requests: await listUploadRequests(c.var.services, c.var.caller) }, 200));
}
