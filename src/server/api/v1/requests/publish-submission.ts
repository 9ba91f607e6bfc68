import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { SubmissionIdParamSchema, SubmissionResponseSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { publishSubmission } from '../../../collections/requests/submissions.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const publishSubmissionRoute = v1Route({
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

export function registerPublishSubmission(app: OpenAPIHono<AppEnv>) {
  app.openapi(publishSubmissionRoute, async (c) => {
    const { id, submissionId } = c.req.valid('param');
    return c.json({ submission: await publishSubmission(c.var.services, c.var.caller, id, submissionId) }, 200);
  });
}
