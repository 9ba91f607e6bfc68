import { Hono, type Context } from 'hono';
import { AddSubmissionFilesRequestSchema, SUBMISSION_TOKEN_HEADER, StartSubmissionRequestSchema } from '../../contract/public-requests.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress } from '../http/headers.js';
import { parseJsonBody } from '../http/validate.js';
import {
  addSubmissionFiles,
  cancelSubmissionFile,
  describeUploadRequest,
  finishSubmission,
  openUploadRequest,
  startSubmission,
} from '../collections/requests/submissions.js';
import type { Services } from '../services.js';

/**
 * The uploader's side of an upload request, mounted at `/api/public/requests` inside the public
 * API (so the anonymous per-address limit and `no-store` apply); see src/contract/public-requests.ts.
 * The handlers parse, call the submission operations and answer. Every call opens the request
 * afresh, so a pause, a close or a passed deadline takes effect on the very next one.
 */
export function publicRequestRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const open = (c: Context<AppEnv>) => openUploadRequest(c.var.services, c.req.param('slug') ?? '');

  app.get('/:slug', async (c) => c.json(describeUploadRequest(c.var.services, await open(c))));

  app.post('/:slug/submissions', async (c) => {
    const opened = await open(c);
    const input = await parseJsonBody(c, StartSubmissionRequestSchema);
    return c.json(await startSubmission(c.var.services, opened, input, clientAddress(c, services.config.TRUST_PROXY)), 201);
  });

  app.post('/:slug/submissions/:id/files', async (c) => {
    const opened = await open(c);
    const { files } = await parseJsonBody(c, AddSubmissionFilesRequestSchema);
    return c.json(await addSubmissionFiles(c.var.services, opened, c.req.param('id'), c.req.header(SUBMISSION_TOKEN_HEADER), files), 201);
  });

  app.delete('/:slug/submissions/:id/files/:fileId', async (c) => {
    const opened = await open(c);
    return c.json(await cancelSubmissionFile(c.var.services, opened, c.req.param('id'), c.req.header(SUBMISSION_TOKEN_HEADER), c.req.param('fileId')));
  });

  app.post('/:slug/submissions/:id/finish', async (c) => {
    const opened = await open(c);
    return c.json({ submission: await finishSubmission(c.var.services, opened, c.req.param('id'), c.req.header(SUBMISSION_TOKEN_HEADER)) });
  });

  return app;
}
