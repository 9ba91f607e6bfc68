import type { OpenAPIHono } from '@hono/zod-openapi';
import { SubmissionListSchema, UploadRequestIdParamSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { listSubmissions } from '../../../collections/requests/submissions.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const listSubmissionsRoute = v1Route({
  method: 'get',
  path: '/requests/{id}/submissions',
  operationId: 'listSubmissions',
  tags: ['Upload requests'],
  summary: 'List the submissions of an upload request',
  description:
    'Our addition: every submission of the request, newest first, each with the uploader (untrusted text), their message, its folder and up to 500 of its files. A submission is `uploading` until the uploader is done and every file they kept has arrived, then `complete`. One its uploader has not sent (`sent: false`) is the owner’s alone: its files are listed in the collection marked `unsent` and shown to nobody else, never published by themselves; the owner publishes or discards it, and one nobody acted on is discarded at `discardAt` (a week after it was started). Files registered into it whose bytes never arrived are deleted a day after registration.',
  scope: 'collections:read',
  request: { params: UploadRequestIdParamSchema },
  responses: { 200: json(SubmissionListSchema, 'The submissions') },
});

export function registerListSubmissions(app: OpenAPIHono<AppEnv>) {
  app.openapi(listSubmissionsRoute, async (c) => c.json({ submissions: await listSubmissions(c.var.services, c.var.caller, c.req.valid('param').id) }, 200));
}
