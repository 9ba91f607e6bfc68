import { z } from '@hono/zod-openapi';
import { resourceIdParam } from './ids.js';
import { SenderSchema } from './transfers.js';

/**
 * Upload requests: public upload pages (`/r/<slug>`) that bring files into a collection. The spec
 * names the endpoints, the scopes and the plan gate and leaves the payload to us; it is documented
 * on each schema and operation here.
 */

export const uploadRequestStatuses = ['open', 'paused', 'closed'] as const;
export type UploadRequestStatus = (typeof uploadRequestStatuses)[number];

/** C0/C1 control characters, and the bidirectional overrides and isolates that can disguise text. */
const FORBIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
const withoutLineBreaks = (v: string) => v.replace(/\r?\n/g, '');

/** A line of typed text (a title, a name): trimmed, 1..max characters, no control characters. */
export const typedLine = (field: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((v) => !FORBIDDEN.test(v), { error: `${field} must not contain control characters` });

/** Typed paragraphs (a message): trimmed, up to max characters, line breaks allowed, no other control characters. */
export const typedText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((v) => !FORBIDDEN.test(withoutLineBreaks(v)), { error: `${field} must not contain control characters other than line breaks` });

/** `type/subtype` or `type/*`, lower-cased. */
const MIME_OR_WILDCARD = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;

const allowedTypes = z
  .array(
    z
      .string({ error: 'each allowed type must be a string' })
      .trim()
      .toLowerCase()
      .regex(MIME_OR_WILDCARD, { error: 'each allowed type must be a MIME type such as application/pdf, or type/* such as image/*' }),
    { error: 'allowedTypes must be an array of MIME types' },
  )
  .max(50, { error: 'allowedTypes must have at most 50 items' })
  .transform((types) => [...new Set(types)])
  .openapi({
    description:
      'MIME types (`application/pdf`) or whole families (`image/*`) a file must have; empty for any. Checked against each file’s `mimeType` before any byte is accepted.',
    example: ['image/*', 'application/pdf'],
  });

const deadline = z.iso.datetime({ offset: true, error: 'deadline must be an ISO 8601 date-time' }).nullable().openapi({
  description: 'After this instant the page no longer accepts new files (uploads already under way may finish); null for none. Must be in the future when set.',
  example: '2026-12-31T23:59:59Z',
});
/** Most files one submission may hold when its request names no number: an uploader cannot register files without end. */
export const DEFAULT_MAX_FILES_PER_SUBMISSION = 500;
/** The most a request may allow per submission. */
export const MAX_FILES_PER_SUBMISSION = 10_000;
/** The number of files per submission a request's rule comes to: its own, or the default. */
export const maxFilesInForce = (maxFiles: number | null) => maxFiles ?? DEFAULT_MAX_FILES_PER_SUBMISSION;

const maxFiles = z
  .number({ error: 'maxFiles must be a number or null' })
  .int({ error: 'maxFiles must be a whole number' })
  .min(1, { error: 'maxFiles must be at least 1' })
  .max(MAX_FILES_PER_SUBMISSION, { error: `maxFiles must be at most ${MAX_FILES_PER_SUBMISSION}` })
  .nullable()
  .openapi({
    description: `Most files one submission may hold, 1 to ${MAX_FILES_PER_SUBMISSION}; absent or null for the default, ${DEFAULT_MAX_FILES_PER_SUBMISSION}. A registration that would take a submission past it is refused before anything is written (\`400 invalid_request\` naming \`files\` and the limit).`,
  });
const maxBytes = z
  .number({ error: 'maxBytes must be a number or null' })
  .int({ error: 'maxBytes must be a whole number of bytes' })
  .min(1, { error: 'maxBytes must be at least 1' })
  .max(Number.MAX_SAFE_INTEGER)
  .nullable()
  .openapi({ description: 'Most bytes one submission may hold, all its files together; null for no limit.' });
const folderId = z.string({ error: 'folderId must be a string or null' }).min(1).max(100).nullable();
const collectionId = z.string({ error: 'collectionId is required' }).min(1, { error: 'collectionId must not be empty' }).max(100);

export const CreateUploadRequestRequestSchema = z
  .object({
    title: typedLine('title', 200).openapi({ example: 'Send us your signed contract' }),
    message: typedText('message', 2000).nullable().optional().openapi({ description: 'Shown to uploaders on the page; line breaks kept.' }),
    collectionId: collectionId.openapi({ description: 'The collection the files go into.', example: 'col_3kR8s0aQ2nVt7LbX4cRw' }),
    folderId: folderId.optional().openapi({ description: 'The folder of that collection submissions go under; absent or null for the top level.' }),
    status: z
      .enum(['open', 'paused'], { error: 'status must be open or paused' })
      .default('open')
      .openapi({ description: 'Create it `paused` to prepare it before sharing.' }),
    deadline: deadline.optional(),
    maxFiles: maxFiles.optional(),
    maxBytes: maxBytes.optional(),
    allowedTypes: allowedTypes.default([]),
    requireEmail: z
      .boolean({ error: 'requireEmail must be true or false' })
      .default(false)
      .openapi({ description: 'Ask uploaders for an email address as well as their name.' }),
  })
  .openapi('CreateUploadRequestRequest');

export const UpdateUploadRequestRequestSchema = z
  .object({
    title: typedLine('title', 200).optional(),
    message: typedText('message', 2000).nullable().optional().openapi({ description: '`null` or "" clears it.' }),
    collectionId: collectionId
      .optional()
      .openapi({ description: 'Send new submissions to another collection (`folderId` resets to its top level unless given).' }),
    folderId: folderId.optional(),
    status: z.enum(uploadRequestStatuses, { error: 'status must be one of: open, paused, closed' }).optional().openapi({
      description: '`open` ↔ `paused`, and either → `closed`, which is final.',
    }),
    deadline: deadline.optional(),
    maxFiles: maxFiles.optional(),
    maxBytes: maxBytes.optional(),
    allowedTypes: allowedTypes.optional(),
    requireEmail: z.boolean({ error: 'requireEmail must be true or false' }).optional(),
  })
  .openapi('UpdateUploadRequestRequest', {
    description: 'Only the fields given change. A closed request takes no change: `409 conflict` with `details.reason` `closed`.',
  });

export const UploadRequestSchema = z
  .object({
    id: z.string().openapi({ example: 'req_7pQ2xL9sV4mT1kRw8bNz' }),
    title: z.string(),
    message: z.string().nullable(),
    collectionId: z.string().nullable().openapi({ description: 'Null once the collection was deleted (which closes the request).' }),
    folderId: z.string().nullable().openapi({ description: 'Where submissions go; null for the collection’s top level (also after that folder was deleted).' }),
    url: z.url().openapi({ description: 'The public upload page, `/r/<slug>`: anyone with it can send files while the request is open.' }),
    status: z.enum(uploadRequestStatuses),
    acceptingFiles: z
      .boolean()
      .openapi({
        description: 'Our addition: `open`, before its deadline, on a paid plan and with its collection: whether the page takes new files right now.',
      }),
    deadline: z.iso.datetime().nullable(),
    maxFiles: z
      .number()
      .int()
      .nullable()
      .openapi({ description: `The most files one submission may hold, as in force: the request’s own number, or the default (${DEFAULT_MAX_FILES_PER_SUBMISSION}). Never null since the default was added.` }),
    maxBytes: z.number().int().nullable(),
    allowedTypes: z.array(z.string()),
    requireEmail: z.boolean(),
    submissionCount: z.number().int().min(0).openapi({ description: 'Submissions started through the page, complete or not.' }),
    fileCount: z.number().int().min(0).openapi({ description: 'Files of its submissions still in the collection.' }),
    sizeBytes: z.number().int().min(0),
    lastSubmissionAt: z.iso.datetime().nullable().openapi({ description: 'Our addition: when the latest submission was started.' }),
    createdBy: SenderSchema.nullable().openapi({
      description: 'Our addition: the member or API key that made it; null for one made before teams, or whose maker’s account is gone. It stays the workspace’s whoever made it.',
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('UploadRequest');

export type UploadRequest = z.infer<typeof UploadRequestSchema>;

export const UploadRequestResponseSchema = z.object({ request: UploadRequestSchema }).openapi('UploadRequestResponse');
export const UploadRequestListSchema = z
  .object({ requests: z.array(UploadRequestSchema) })
  .openapi('UploadRequestList', { description: 'Every upload request of the workspace at once, newest first.' });

export const UploadRequestIdParamSchema = z.object({
  id: resourceIdParam('id', 'req', 'An upload request id (never its slug).', 'req_7pQ2xL9sV4mT1kRw8bNz'),
});

export const submissionStatuses = ['uploading', 'complete'] as const;

export const SubmissionFileSchema = z.object({
  id: z.string(),
  name: z.string().openapi({ description: 'Untrusted text.' }),
  sizeBytes: z.number().int().min(0),
  mimeType: z.string(),
  folderId: z.string().nullable(),
  state: z.enum(['uploading', 'importing', 'complete', 'failed']),
});

export const SubmissionSchema = z
  .object({
    id: z.string().openapi({ example: 'sub_2mK8qX0vT5nR1wB7sLzP' }),
    uploader: z
      .object({ name: z.string(), email: z.string().nullable() })
      .openapi({ description: 'As typed on the page: untrusted text, never to be rendered as HTML.' }),
    message: z.string().nullable().openapi({ description: 'Typed by the uploader: untrusted text.' }),
    status: z.enum(submissionStatuses).openapi({
      description: '`uploading` until the uploader said they are done and every file they kept has arrived; then `complete` (and `request.submitted` is sent).',
    }),
    sent: z.boolean().openapi({
      description:
        'Our addition: whether the uploader pressed Send (or the owner published it). Until then its files are the owner’s alone, marked `unsent` in the collection’s file list: no visitor or guest sees them, and no zip or download link holds them. The owner publishes it (`POST …/publish`) or discards it (`DELETE`); one nobody acted on is discarded at `discardAt`.',
    }),
    discardAt: z.iso.datetime().nullable().openapi({
      description: 'Our addition: for a submission not sent, when it is discarded with its files unless sent or published first (a week after it was started); null once sent.',
    }),
    collectionId: z.string().nullable(),
    folderId: z.string().nullable().openapi({ description: 'The submission’s own folder (named from the uploader and the date); null if it was deleted.' }),
    fileCount: z.number().int().min(0),
    sizeBytes: z.number().int().min(0),
    files: z.array(SubmissionFileSchema).openapi({ description: 'Up to 500 of its files, oldest first.' }),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .openapi('Submission');

export type Submission = z.infer<typeof SubmissionSchema>;

export const SubmissionIdParamSchema = z.object({
  id: resourceIdParam('id', 'req', 'An upload request id (never its slug).', 'req_7pQ2xL9sV4mT1kRw8bNz'),
  submissionId: resourceIdParam('submissionId', 'sub', 'A submission of that request.', 'sub_2mK8qX0vT5nR1wB7sLzP'),
});

export const SubmissionResponseSchema = z.object({ submission: SubmissionSchema }).openapi('SubmissionResponse');

export const SubmissionDiscardedSchema = z.object({ deleted: z.literal(true) }).openapi('SubmissionDiscarded');

export const SubmissionListSchema = z
  .object({ submissions: z.array(SubmissionSchema) })
  .openapi('SubmissionList', { description: 'Every submission of the request at once, newest first.' });
