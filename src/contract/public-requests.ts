import { z } from 'zod';
import { EmailSchema } from './dashboard.js';
import { typedLine, typedText } from './requests.js';
import { FileToUploadSchema, UploadTargetSchema } from './transfers.js';

/**
 * The uploader's side of an upload request under `/api/public/requests`: what the page at
 * `/r/<slug>` calls, without any workspace credential. The slug in the path is the capability.
 *
 * Endpoints (`{slug}` is the request's slug):
 * - `GET {slug}`: the request as an uploader sees it (PublicUploadRequest).
 * - `POST {slug}/submissions` StartSubmissionRequest → `201` StartedSubmission: the uploader's
 *   details and a first batch of files, registered for upload (tus, the same endpoint, tokens and
 *   exact sizes as every upload). At most `RATE_LIMIT_SUBMISSIONS_PER_HOUR` (default 20) per address an hour.
 * - `POST {slug}/submissions/{id}/files` `{ files }` → `201` AddedSubmissionFiles: more files.
 * - `DELETE {slug}/submissions/{id}/files/{fileId}` → `200 { deleted: true }`: cancels a file that
 *   has not finished; it leaves nothing behind. A finished file is `409 conflict`.
 * - `POST {slug}/submissions/{id}/finish` → `{ submission: SubmissionProgress }`: "Send". Only now are the
 *   files delivered: before, nobody but the workspace sees them (not the collection's visitors or guests),
 *   and a submission never sent is discarded a week after it was started (files registered whose bytes
 *   never arrived, after a day). The submission is complete once every file kept has arrived.
 *
 * The three calls on a submission carry its token (from the start) in `x-submission-token`.
 *
 * New files are taken only while the request accepts them (open, before its deadline): the limits
 * (`maxFiles`, 500 unless the request says otherwise, and `maxBytes` per submission) and `allowedTypes` are checked against the sizes and
 * types declared here, before any byte is accepted (`400 invalid_request` naming the rule). Uploads
 * already under way when a request is paused or closed may finish, and finishing is always allowed.
 *
 * Errors use the shared Error shape: 400 `invalid_request` naming the field; 401 `unauthorized`
 * for a missing or wrong submission token; 404 `not_found` for an unknown slug, submission or file;
 * 409 `conflict` with `details.reason` (`paused`, `closed`, `deadline`) when the request takes no
 * new files; 410 `link_unavailable` (`suspended`) while the operator has disabled the workspace;
 * 429 `rate_limited`.
 */

export const SUBMISSION_TOKEN_HEADER = 'x-submission-token';

export type PublicRequestState = 'open' | 'paused' | 'closed';

export const PublicUploadRequestSchema = z.object({
  title: z.string(),
  message: z.string().nullable(),
  workspaceName: z.string(),
  /** `open`: taking files. `paused`: not now, maybe later. `closed`: never again (`closedReason` says why). */
  state: z.enum(['open', 'paused', 'closed']),
  closedReason: z.enum(['closed', 'deadline']).nullable(),
  deadline: z.string().nullable(),
  /** The most files one submission may hold, as the server enforces it (the request's number, or the default 500). */
  maxFiles: z.number().int().nullable(),
  maxBytes: z.number().int().nullable(),
  allowedTypes: z.array(z.string()),
  requireEmail: z.boolean(),
});
export type PublicUploadRequest = z.infer<typeof PublicUploadRequestSchema>;

const submissionFiles = z
  .array(FileToUploadSchema, { error: 'files must be an array' })
  .min(1, { error: 'add at least one file' })
  .max(1000, { error: 'at most 1000 files per call' });

export const StartSubmissionRequestSchema = z.object({
  name: typedLine('name', 100),
  /** Required when the request says `requireEmail`; "" is the same as none. */
  email: z
    .union([z.literal(''), EmailSchema])
    .nullable()
    .optional()
    .transform((v) => v || null),
  message: typedText('message', 2000)
    .nullable()
    .optional()
    .transform((v) => v || null),
  files: submissionFiles,
});

export const AddSubmissionFilesRequestSchema = z.object({ files: submissionFiles });

export const SubmissionProgressSchema = z.object({
  id: z.string(),
  status: z.enum(['uploading', 'complete']),
  fileCount: z.number().int(),
  sizeBytes: z.number().int(),
  /** The submission's folder in the collection (for the thank-you page). */
  folderName: z.string().nullable(),
});
export type SubmissionProgress = z.infer<typeof SubmissionProgressSchema>;

export const StartedSubmissionSchema = z.object({
  submission: SubmissionProgressSchema.extend({ token: z.string() }),
  tusEndpoint: z.string(),
  files: z.array(UploadTargetSchema),
});
export type StartedSubmission = z.infer<typeof StartedSubmissionSchema>;

export const AddedSubmissionFilesSchema = z.object({ tusEndpoint: z.string(), files: z.array(UploadTargetSchema) });

/** Whether a file's type is one the request takes: any when the list is empty; `image/*` takes every `image/…`. */
export function typeAllowed(allowed: readonly string[], mimeType: string): boolean {
  if (allowed.length === 0) return true;
  const type = mimeType.toLowerCase();
  return allowed.some((a) => (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : a === type));
}
