import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import {
  AddedSubmissionFilesSchema,
  AddSubmissionFilesRequestSchema,
  PublicUploadRequestSchema,
  StartedSubmissionSchema,
  StartSubmissionRequestSchema,
  SUBMISSION_TOKEN_HEADER,
  SubmissionProgressSchema,
} from '../../contract/public-requests.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress } from '../http/headers.js';
import {
  addSubmissionFiles,
  cancelSubmissionFile,
  describeUploadRequest,
  finishSubmission,
  openUploadRequest,
  startSubmission,
} from '../collections/requests/submissions.js';
import type { Services } from '../services.js';
import type { PublicSurface } from './transfers.js';

/**
 * The uploader's side of an upload request, mounted at `/api/public/requests` inside the public
 * API (so the anonymous per-address limit and `no-store` apply); see src/contract/public-requests.ts.
 * The handlers parse, call the submission operations and answer. Every call opens the request
 * afresh, so a pause, a close or a passed deadline takes effect on the very next one.
 */
export function publicRequestRoutes(surface: PublicSurface, services: Services) {
  const open = (c: Context<AppEnv>, slug: string) => openUploadRequest(c.var.services, slug);
  const token = (c: Context<AppEnv>) => c.req.header(SUBMISSION_TOKEN_HEADER);

  surface
    .route({ method: 'get', path: '/:slug', auth: 'link', summary: 'An upload request, as its page shows it', success: { status: 200, schema: PublicUploadRequestSchema } }, async (c, { params }) =>
      c.json(describeUploadRequest(c.var.services, await open(c, params.slug))),
    )
    .route(
      {
        method: 'post',
        path: '/:slug/submissions',
        auth: 'link',
        summary: "Start a submission: the uploader's name and files",
        body: StartSubmissionRequestSchema,
        success: { status: 201, schema: StartedSubmissionSchema },
      },
      async (c, { params, body }) => {
        const opened = await open(c, params.slug);
        return c.json(await startSubmission(c.var.services, opened, body, clientAddress(c, services.config.TRUST_PROXY)), 201);
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/submissions/:id/files',
        auth: 'link',
        summary: 'Add files to a submission not yet sent',
        description: 'The submission is named by its token (the `x-submission-token` header).',
        body: AddSubmissionFilesRequestSchema,
        success: { status: 201, schema: AddedSubmissionFilesSchema },
      },
      async (c, { params, body }) => {
        const opened = await open(c, params.slug);
        return c.json(await addSubmissionFiles(c.var.services, opened, params.id, token(c), body.files), 201);
      },
    )
    .route(
      { method: 'delete', path: '/:slug/submissions/:id/files/:fileId', auth: 'link', summary: 'Take back a file whose bytes have not all arrived', success: { status: 200, schema: z.object({ deleted: z.literal(true) }) } },
      async (c, { params }) => {
        const opened = await open(c, params.slug);
        return c.json(await cancelSubmissionFile(c.var.services, opened, params.id, token(c), params.fileId));
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/submissions/:id/finish',
        auth: 'link',
        summary: 'Send the submission: its files become the collection\'s once all have arrived',
        success: { status: 200, schema: z.object({ submission: SubmissionProgressSchema }) },
      },
      async (c, { params }) => {
        const opened = await open(c, params.slug);
        return c.json({ submission: await finishSubmission(c.var.services, opened, params.id, token(c)) });
      },
    );
}
