import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerCreateUploadRequest } from './create.js';
import { registerDiscardSubmission } from './discard-submission.js';
import { registerGetUploadRequest } from './get.js';
import { registerListSubmissions } from './list-submissions.js';
import { registerListUploadRequests } from './list.js';
import { registerPublishSubmission } from './publish-submission.js';
import { registerUpdateUploadRequest } from './update.js';

/**
 * The Upload requests resource: public upload pages (`/r/<slug>`) that bring files into a
 * collection. Reading works on the free plan (so a lapsed workspace still sees its requests);
 * creating and changing need a paid plan. The payload is ours: the spec does not show it.
 */
export function registerUploadRequests(app: OpenAPIHono<AppEnv>) {
  registerListUploadRequests(app);
  registerCreateUploadRequest(app);
  registerGetUploadRequest(app);
  registerUpdateUploadRequest(app);
  registerListSubmissions(app);
  registerPublishSubmission(app);
  registerDiscardSubmission(app);
}
