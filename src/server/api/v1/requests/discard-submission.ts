import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { SubmissionDiscardedSchema, SubmissionIdParamSchema } from '../../../../contract/requests.js';
import type { AppEnv } from '../../../http/env.js';
import { discardSubmission } from '../../../collections/requests/submissions.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const discardSubmissionRoute = v1Route({
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

export function registerDiscardSubmission(app: OpenAPIHono<AppEnv>) {
  app.openapi(discardSubmissionRoute, async (c) => {
    const { id, submissionId } = c.req.valid('param');
    return c.json(await discardSubmission(c.var.services, c.var.caller, id, submissionId), 200);
  });
}
