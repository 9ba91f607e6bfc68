import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import {
  CreateUploadRequestRequestSchema,
  SubmissionDiscardedSchema,
  SubmissionIdParamSchema,
  SubmissionListSchema,
  SubmissionResponseSchema,
  UpdateUploadRequestRequestSchema,
  UploadRequestIdParamSchema,
  UploadRequestListSchema,
  UploadRequestResponseSchema,
} from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { createUploadRequest, getUploadRequest, listUploadRequests, updateUploadRequest } from '../../../collections/requests/requests.js';
import { discardSubmission, listSubmissions, publishSubmission } from '../../../collections/requests/submissions.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

/**
 * The Upload requests resource: public upload pages (`/r/<slug>`) that bring files into a
 * collection. Reading works on the free plan (so a lapsed workspace still sees its requests);
 * creating and changing need a paid plan. The payload is ours: the spec does not show it.
 */

const PAYLOAD =
  'An upload request is a public page (`url`, `/r/<slug>`) where anyone with the link sends files, without an account, into `collectionId` (under `folderId`). Each submission gets its own folder there, named from the uploader and the date; its files are collection files with source `file_request`. When a submission is complete, `request.submitted` is sent and the workspace is mailed (our design: the spec does not show the payload).';

const list = v1Route({
  method: 'get',
  path: '/requests',
  operationId: 'listUploadRequests',
  tags: ['Upload requests'],
  summary: 'List upload requests',
  description: `Every upload request of the workspace in one response, newest first. ${PAYLOAD}`,
  scope: 'collections:read',
  responses: { 200: json(UploadRequestListSchema, 'The upload requests') },
});

const create = v1Route({
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

const get = v1Route({
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

const update = v1Route({
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

const submissions = v1Route({
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

const publish = v1Route({
  method: 'post',
  path: '/requests/{id}/submissions/{submissionId}/publish',
  operationId: 'publishSubmission',
  tags: ['Upload requests'],
  summary: 'Publish a submission its uploader did not send',
  description:
    'Our addition: sends the submission as it is, as if its uploader had pressed Send: its files become the collection’s (visitors and guests see them, zips and download links hold them, `collection.file_uploaded` goes out for each), and it completes once every file kept has arrived (`request.submitted`). Nobody is mailed: the owner did it. A submission already sent is answered unchanged; one holding no file is `409 conflict` (`details.reason` `empty`).',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: SubmissionIdParamSchema },
  responses: {
    200: json(SubmissionResponseSchema, 'The submission, sent'),
    409: json(ErrorSchema, '`conflict`: the submission holds no file (`details.reason` `empty`).'),
  },
});

const discard = v1Route({
  method: 'delete',
  path: '/requests/{id}/submissions/{submissionId}',
  operationId: 'discardSubmission',
  tags: ['Upload requests'],
  summary: 'Discard a submission its uploader did not send',
  description:
    'Our addition: deletes a submission that was not sent, with its files (rows and stored bytes) and its folder when nothing else is in it; the uploader’s page can no longer add to it. A submission that was sent is the collection’s: `409 conflict` (`details.reason` `sent`); delete its files in the collection instead.',
  scope: 'collections:write',
  paidOnly: true,
  request: { params: SubmissionIdParamSchema },
  responses: {
    200: json(SubmissionDiscardedSchema, 'Discarded'),
    409: json(ErrorSchema, '`conflict`: the submission was sent, so its files are the collection’s (`details.reason` `sent`).'),
  },
});

export function registerUploadRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => c.json({ requests: await listUploadRequests(c.var.services, c.var.caller) }, 200));
  app.openapi(create, async (c) => c.json({ request: await createUploadRequest(c.var.services, c.var.caller, c.req.valid('json')) }, 201));
  app.openapi(get, async (c) => c.json({ request: await getUploadRequest(c.var.services, c.var.caller, c.req.valid('param').id) }, 200));
  app.openapi(update, async (c) =>
    c.json({ request: await updateUploadRequest(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json')) }, 200),
  );
  app.openapi(submissions, async (c) => c.json({ submissions: await listSubmissions(c.var.services, c.var.caller, c.req.valid('param').id) }, 200));
  app.openapi(publish, async (c) => {
    const { id, submissionId } = c.req.valid('param');
    return c.json({ submission: await publishSubmission(c.var.services, c.var.caller, id, submissionId) }, 200);
  });
  app.openapi(discard, async (c) => {
    const { id, submissionId } = c.req.valid('param');
    return c.json(await discardSubmission(c.var.services, c.var.caller, id, submissionId), 200);
  });
}
