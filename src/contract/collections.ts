import { z } from '@hono/zod-openapi';
import { EmailSchema } from './dashboard.js';
import { resourceIdParam } from './ids.js';
import { LOCALES } from './locales.js';
import { NextCursorSchema, cursorParam, limitParam } from './pagination.js';
import { fileErrorField, fileNameField, filesField, importsField, scanResultField, thumbnailsParam, thumbnailUrlField } from './transfers.js';
import { readableSlugProblem } from './readable-slugs.js';

/**
 * Collections: named sets of files with folders, guests and a visibility (paid plan). The spec
 * fixes CollectionSummary and Collection; how collections are listed, created, changed and deleted
 * is ours, documented on each operation.
 */

export const collectionVisibilities = ['private', 'public', 'password'] as const;
export type CollectionVisibility = (typeof collectionVisibilities)[number];

export const reviewStates = ['approved', 'changes_requested'] as const;
export const reviewMailChoices = ['daily', 'each', 'off'] as const;

/** C0/C1 control characters, and the bidirectional overrides and isolates that can disguise text. */
const FORBIDDEN_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

const title = z
  .string({
    error: (issue) => (issue.input === undefined ? 'title is required' : 'title must be a string'),
  })
  .trim()
  .min(1, { error: 'title must not be empty' })
  .max(200, { error: 'title must be at most 200 characters' })
  .refine((v) => !FORBIDDEN_CHARACTERS.test(v), {
    error: 'title must not contain control characters',
  });

// Line breaks are allowed in a description; other control characters are not.
const description = z
  .string({ error: 'description must be a string' })
  .trim()
  .max(2000, { error: 'description must be at most 2000 characters' })
  .refine((v) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(v.replace(/\r?\n/g, '')), {
    error: 'description must not contain control characters other than line breaks',
  });

const visibility = z.enum(collectionVisibilities, {
  error: 'visibility must be one of: private, public, password',
});

/** A collection's password: the API's rule, which the dashboard's forms check too before sending. */
export const CollectionPasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(4, { error: 'password must be at least 4 characters' })
  .max(200, { error: 'password must be at most 200 characters' });

/**
 * What is wrong with a collection's password for the visibility it will have, or null: `password`
 * needs one (sent now, or set before), any other visibility takes none. The one rule for create
 * (here) and for changes (checked against the stored collection by the operation).
 */
export function collectionPasswordProblem(visibility: CollectionVisibility, passwordSent: boolean, passwordStored: boolean): string | null {
  if (visibility === 'password') return passwordSent || passwordStored ? null : 'password is required for visibility password';
  return passwordSent ? 'password is only for visibility password' : null;
}

export const CreateCollectionRequestSchema = z
  .object({
    title: title.openapi({ example: 'Spring lookbook' }),
    description: description.nullable().optional().openapi({
      description: 'Up to 2000 characters; line breaks allowed.',
      example: 'Final selects, full resolution.',
    }),
    visibility: visibility.default('private').openapi({
      description: '`private` (only invited guests, the default), `public` (anyone with the link) or `password`.',
    }),
    password: CollectionPasswordSchema.optional().openapi({
      description: 'Required with `visibility` `password`, refused with any other. Stored only as a hash.',
    }),
  })
  .superRefine((input, ctx) => {
    const problem = collectionPasswordProblem(input.visibility, input.password !== undefined, false);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
  })
  .openapi('CreateCollectionRequest');

export const UpdateCollectionRequestSchema = z
  .object({
    title: title.optional(),
    description: description.nullable().optional().openapi({ description: '`null` or "" clears it.' }),
    visibility: visibility.optional().openapi({
      description: 'Takes effect on the next request of every visitor. Changing to `password` needs a `password` unless the collection already has one.',
    }),
    password: CollectionPasswordSchema.optional().openapi({
      description: 'A new password; only with visibility `password` (sent now or already set).',
    }),
    coverFileId: z.string({ error: 'coverFileId must be a string or null' }).min(1).max(100).nullable().optional().openapi({
      description: 'An image file of this collection shown as its cover; `null` removes it. Any other file is `400` naming `coverFileId`.',
    }),
    customLink: z.boolean({ error: 'customLink must be true or false' }).optional().openapi({
      description:
        'Also serve the collection at `/<slug>` on the workspace’s own domain (`workspace.customDomain` in `GET /me`), once the operator has set one.',
    }),
    reviewMail: z.enum(reviewMailChoices, { error: 'reviewMail must be one of: daily, each, off' }).optional().openapi({
      description: 'How the workspace is mailed about guests’ comments and reviews: `daily` digest, `each` one, or `off`.',
    }),
    slug: z
      .string({ error: 'slug must be a string' })
      .superRefine((value, ctx) => {
        const problem = readableSlugProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .openapi({
        example: 'spring-lookbook',
        description:
          'A readable link for the collection (`/c/spring-lookbook`, and `/spring-lookbook` on the workspace’s own domain): 3 to 64 lower-case letters and digits in words joined by single hyphens. The service’s own path names and words phishing pages use are refused (`400` naming `slug`); a name another collection has or had is `409 conflict` naming `slug` (a name this workspace’s deleted collection had may be taken again). Every link the collection had keeps working, redirected to the new one, for as long as the collection exists. A readable link can be guessed: keep a collection that must stay private on `private` or `password`.',
      }),
  })
  .openapi('UpdateCollectionRequest', {
    description: 'Only the fields given change.',
  });

const summaryFields = {
  id: z.string().openapi({ example: 'col_3kR8s0aQ2nVt7LbX4cRw' }),
  title: z.string(),
  slug: z.string().openapi({ description: 'The last part of the link: unguessable as made, or the readable name the owner gave it.' }),
  visibility: z.enum(collectionVisibilities),
  sizeBytes: z.number().int().min(0),
  coverFileId: z.string().nullable(),
  updatedAt: z.iso.datetime(),
};

export const CollectionSummarySchema = z
  .object({
    ...summaryFields,
    fileCount: z.number().int().min(0),
    coverUrl: z.url().nullable().openapi({
      description:
        'Our addition: the cover’s image preview (WebP, at most 480 px) at a signed URL valid an hour, for showing the list; null without a cover or before its preview is made. List again for fresh URLs.',
    }),
  })
  .openapi('CollectionSummary');

export const CollectionSchema = z
  .object({
    ...summaryFields,
    description: z.string().nullable(),
    url: z.url().nullable().openapi({
      description: 'The secret link (`/c/<slug>`), to be treated like a password.',
    }),
    customLink: z.boolean().openapi({
      description: 'Whether the collection is also served at `/<slug>` on the workspace’s own domain.',
    }),
    reviewMail: z.enum(reviewMailChoices).openapi({
      description: 'Our addition: how the workspace is mailed about its guests’ comments and reviews: `daily` (a digest, the default), `each` (a mail per comment or decision), or `off`.',
    }),
    fileCount: z.number().int().min(0).optional().openapi({ description: 'Present on the single-collection read.' }),
    expiresAt: z.iso.datetime().nullable().openapi({
      description:
        'Null on a paid plan, where nothing expires. If the plan lapses, collections stay null too: they are kept read-only (their links and download links keep working, every other operation answers `402`) until the plan is renewed or the workspace deletes them.',
    }),
    createdAt: z.iso.datetime(),
  })
  .openapi('Collection');

export const CollectionResponseSchema = z.object({ collection: CollectionSchema }).openapi('CollectionResponse');
export const CollectionListSchema = z.object({ collections: z.array(CollectionSummarySchema) }).openapi('CollectionList');
export const CollectionDeletedSchema = z.object({ deleted: z.literal(true) }).openapi('CollectionDeleted');

export const CollectionIdParamSchema = z.object({
  id: resourceIdParam('id', 'col', 'A collection id (never its slug).', 'col_3kR8s0aQ2nVt7LbX4cRw'),
});

// Files

const fileId = z.string({ error: 'each fileId must be a string' }).min(1, { error: 'each fileId must be at least 1 character' }).max(100);
const folderIdField = z.string({ error: 'folderId must be a string or null' }).min(1).max(100).nullable();

export const fileStates = ['uploading', 'importing', 'complete', 'failed'] as const;

/** Who added a collection file: a member of the workspace, an API key, a contributor guest, or an upload request's uploader (whose name is untrusted text they typed). */
export const FileAdderSchema = z
  .object({
    kind: z.enum(['member', 'key', 'guest', 'uploader']),
    id: z.string().nullable().openapi({ description: 'The member\'s (`usr_…`), key\'s (`key_…`) or guest\'s (`gu_…`, null once removed) id; null for an uploader.' }),
    name: z.string().nullable().openapi({ description: 'The member\'s or key\'s name, or the name the uploader typed (untrusted text).' }),
    email: z.string().nullable().openapi({ description: 'The member\'s, guest\'s or uploader\'s address; null for a key.' }),
  })
  .openapi('FileAdder');
export type FileAdder = z.infer<typeof FileAdderSchema>;

/** Who wrote a comment or decided a review (their address and name as they were then). */
export const ReviewerSchema = z
  .object({
    kind: z.enum(['member', 'key', 'guest']),
    id: z.string().nullable().openapi({ description: 'The member’s (`usr_…`), key’s (`key_…`) or guest’s (`gu_…`) id.' }),
    email: z.string().nullable().openapi({ description: 'A member’s or guest’s address; null for a key.' }),
    name: z.string().nullable().openapi({ description: 'A member’s or key’s name; null for a guest.' }),
  })
  .openapi('Reviewer');

export const ReviewSchema = z
  .object({
    state: z.enum(reviewStates),
    by: ReviewerSchema.omit({ id: true, name: true }).openapi({ description: 'Who decided it: their kind and address.' }),
    at: z.iso.datetime(),
  })
  .openapi('Review', { description: 'The latest review decision on a file: `approved` or `changes_requested`.' });

export const CollectionFileSchema = z
  .object({
    id: z.string().openapi({ example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
    name: z.string(),
    sizeBytes: z.number().int().min(0),
    mimeType: z.string(),
    folderId: z.string().nullable().openapi({ description: 'Null at the top level.' }),
    hasThumbnail: z.boolean().openapi({ description: 'An image preview exists (made by the worker after the upload completes).' }),
    crc32: z.string().nullable().openapi({ description: 'CRC-32 (IEEE) as 8 lower-case hex digits; null until the upload completes.' }),
    state: z
      .enum(fileStates)
      .openapi({ description: 'Our addition: `uploading` until every byte arrived, then `complete`; imports go `importing` → `complete` or `failed`.' }),
    error: fileErrorField,
    scanResult: scanResultField,
    unsent: z.boolean().openapi({
      description:
        'Our addition: `true` for a file an uploader added through an upload request and has not sent yet (they have not pressed Send, and the owner has not published the submission). Such a file is listed to the owner only, marked by this field: it is in no visitor’s or guest’s page, count, zip or download link (the owner’s `download-links` included) until it is sent. The owner publishes or discards the submission (`POST /requests/{id}/submissions/{submissionId}/publish`, `DELETE /requests/{id}/submissions/{submissionId}`); one nobody acted on is discarded a week after it was started.',
    }),
    addedBy: FileAdderSchema.nullable().openapi({ description: 'Our addition: who added it; null for a file added before teams. Never shown on the collection’s own page.' }),
    review: ReviewSchema.nullable().openapi({ description: 'Our addition: the latest review decision of a guest or member; null until one.' }),
    commentCount: z.number().int().min(0).openapi({ description: 'Our addition: comments on the file (`GET /collections/{id}/files/{fileId}/comments`).' }),
    createdAt: z.iso.datetime(),
  })
  .openapi('CollectionFile');

export const CollectionFilesQuerySchema = z.object({
  limit: limitParam(1000, undefined),
  cursor: cursorParam,
  thumbnails: thumbnailsParam,
  review: z
    .enum(['approved', 'changes_requested', 'none'], { error: 'review must be one of: approved, changes_requested, none' })
    .optional()
    .openapi({
      param: { name: 'review', in: 'query' },
      description: 'Our addition: only the files whose latest review is `approved` or `changes_requested`, or that have `none` yet.',
    }),
});

// Review: comments threaded by file, and a review state per file.

const commentBody = z
  .string({ error: 'body must be a string' })
  .trim()
  .min(1, { error: 'body must not be empty' })
  .max(5000, { error: 'body must be at most 5000 characters' })
  .refine((v) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(v.replace(/\r?\n/g, '')), {
    error: 'body must not contain control characters other than line breaks',
  });

export const CommentSchema = z
  .object({
    id: z.string().openapi({ example: 'cm_4hG7kL2mN9pQ1rS3tU5v' }),
    fileId: z.string(),
    author: ReviewerSchema,
    body: z.string().openapi({ description: 'Plain text (line breaks kept); untrusted, never markup.' }),
    createdAt: z.iso.datetime(),
  })
  .openapi('Comment');
export type Comment = z.infer<typeof CommentSchema>;

export const CommentListSchema = z.object({ comments: z.array(CommentSchema).openapi({ description: 'Oldest first.' }) }).openapi('CommentList');
export const CommentResponseSchema = z.object({ comment: CommentSchema }).openapi('CommentResponse');
export const CreateCommentRequestSchema = z.object({ body: commentBody }).openapi('CreateCommentRequest');

export const SetReviewRequestSchema = z
  .object({
    state: z
      .enum(reviewStates, { error: 'state must be one of: approved, changes_requested, or null' })
      .nullable()
      .openapi({ description: '`approved`, `changes_requested`, or null to clear the decision.' }),
  })
  .openapi('SetReviewRequest');
export const ReviewResponseSchema = z.object({ review: ReviewSchema.nullable() }).openapi('ReviewResponse');

export const ListedCollectionFileSchema = CollectionFileSchema.extend({
  thumbnailUrl: thumbnailUrlField(),
}).openapi('ListedCollectionFile');

export const CollectionFilePageSchema = z
  .object({ files: z.array(ListedCollectionFileSchema), nextCursor: NextCursorSchema })
  .openapi('CollectionFilePage', { description: 'Oldest first. Without `limit`, every file at once and `nextCursor` null.' });

export const AddCollectionFilesRequestSchema = z
  .object({
    files: filesField,
    imports: importsField,
    folderId: folderIdField.optional().openapi({
      description:
        'Our addition: the folder the files go into (absent or null: the top level). Each file’s `path` is relative to it; its folders are created as needed, so a dropped folder keeps its tree.',
    }),
  })
  .refine((v) => v.files.length + v.imports.length > 0, { error: 'give at least one file or import', path: ['files'] })
  .openapi('AddCollectionFilesRequest');

export const UpdateCollectionFileRequestSchema = z
  .object({
    name: fileNameField().optional(),
    folderId: folderIdField.optional().openapi({ description: 'Moves the file; `null` is the top level.' }),
  })
  .openapi('UpdateCollectionFileRequest', { description: 'Only the fields given change.' });

export const CollectionFileResponseSchema = z.object({ file: CollectionFileSchema }).openapi('CollectionFileResponse');

export const DeleteCollectionFilesRequestSchema = z
  .object({
    fileIds: z
      .array(fileId, { error: 'fileIds must be an array of file ids' })
      .min(1, { error: 'fileIds must have at least 1 item' })
      .max(500, { error: 'fileIds must have at most 500 items' }),
  })
  .openapi('DeleteCollectionFilesRequest');

export const DeletedCountSchema = z
  .object({ deleted: z.number().int().min(0).openapi({ description: 'How many of the ids named a file of this collection and were deleted (moved to its trash).' }) })
  .openapi('DeletedCount');

export const CollectionFileIdParamSchema = z.object({
  id: CollectionIdParamSchema.shape.id,
  fileId: resourceIdParam('fileId', 'fi', 'A file id.', 'fi_8sK2mQ0vX1tB7nRw3LzP'),
});

// Folders

export const FolderSchema = z
  .object({
    id: z.string().openapi({ example: 'fo_5JkQ2mR8sT1vW3xY7zA0' }),
    name: z.string(),
    path: z.string().openapi({ description: 'Slash-separated names from the top level, this folder’s last: `Shoot/Day 1`.', example: 'Shoot/Day 1' }),
    parentId: z.string().nullable().openapi({ description: 'Null at the top level.' }),
    depth: z.number().int().min(0).openapi({ description: 'How many folders it is inside: 0 at the top level.' }),
  })
  .openapi('Folder');

export const CreateFolderRequestSchema = z
  .object({
    name: fileNameField().openapi({ example: 'Day 1' }),
    parentId: folderIdField.optional().openapi({ description: 'The folder it goes in; absent or `null` is the top level.' }),
  })
  .openapi('CreateFolderRequest');

export const UpdateFolderRequestSchema = z
  .object({
    name: fileNameField().optional(),
    parentId: folderIdField
      .optional()
      .openapi({ description: 'Moves the folder with everything inside it; `null` is the top level. Into itself or its own subtree is `400`.' }),
  })
  .openapi('UpdateFolderRequest', { description: 'Only the fields given change.' });

export const FolderResponseSchema = z.object({ folder: FolderSchema }).openapi('FolderResponse');
export const FolderListSchema = z.object({ folders: z.array(FolderSchema) }).openapi('FolderList', { description: 'Depth first, by path.' });

export const FolderIdParamSchema = z.object({
  id: CollectionIdParamSchema.shape.id,
  folderId: resourceIdParam('folderId', 'fo', 'A folder id.', 'fo_5JkQ2mR8sT1vW3xY7zA0'),
});

// Trash

export const TrashItemSchema = z
  .object({
    kind: z.enum(['file', 'folder']),
    id: z.string().openapi({ description: 'The file’s or the folder’s id, as it was before it was deleted.', example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
    name: z.string(),
    path: z.string().openapi({ description: 'Where it was: the folder path and its name, `Shoot/Day 1` or `Shoot/photo.jpg`.' }),
    mimeType: z.string().nullable().openapi({ description: 'A file’s type; null for a folder.' }),
    fileCount: z.number().int().min(0).openapi({ description: 'Files it holds: 1 for a file, everything inside for a folder.' }),
    sizeBytes: z.number().int().min(0),
    trashedAt: z.iso.datetime(),
    purgeAt: z.iso.datetime().openapi({ description: 'When the sweep deletes it for good with its bytes (`TRASH_RETENTION_DAYS`, 30 by default, after `trashedAt`).' }),
  })
  .openapi('TrashItem');
export type TrashItem = z.infer<typeof TrashItemSchema>;

export const TrashListSchema = z.object({ items: z.array(TrashItemSchema) }).openapi('TrashList', { description: 'Every item in the collection’s trash, the latest first.' });

export const TrashItemParamSchema = z.object({
  id: CollectionIdParamSchema.shape.id,
  itemId: z
    .string()
    .regex(/^(fi|fo)_[0-9A-Za-z]{1,60}$/)
    .openapi({ param: { name: 'itemId', in: 'path' }, description: 'The id of a file or a folder in the trash (`TrashItem.id`).', example: 'fo_5JkQ2mR8sT1vW3xY7zA0' }),
});

export const RestoredSchema = z
  .object({
    restored: z.object({
      kind: z.enum(['file', 'folder']),
      id: z.string(),
      folderId: z.string().nullable().openapi({ description: 'The folder it is in now: where it was, or null (the top level) when that folder is gone or in the trash too.' }),
    }),
  })
  .openapi('Restored');

// Guests

export const guestRoles = ['viewer', 'contributor'] as const;
const guestRole = z.enum(guestRoles, { error: 'role must be one of: viewer, contributor' }).openapi({
  description: 'Our design: a `viewer` opens and downloads; a `contributor` may also upload, into `uploadFolderId` and what is under it, or anywhere in the collection when it is null.',
});
const uploadFolderId = z
  .string({ error: 'uploadFolderId must be a string or null' })
  .min(1)
  .max(100)
  .nullable()
  .openapi({ description: 'A contributor’s one folder (a folder of this collection); null for anywhere. Refused (`400`) for a viewer.' });

export const GuestSchema = z
  .object({
    id: z.string().openapi({ example: 'gu_2aB4cD6eF8gH0iJ2kL4m' }),
    email: z.string(),
    role: z.enum(guestRoles),
    uploadFolderId: z.string().nullable().openapi({ description: 'A contributor’s folder; null for anywhere, and for a viewer. A folder since deleted leaves the contributor nowhere to upload.' }),
    invitedAt: z.iso.datetime(),
    lastVisitAt: z.iso.datetime().nullable().openapi({ description: 'When the guest last signed in; null before their first visit.' }),
    language: z
      .string()
      .nullable()
      .openapi({ description: 'Our addition: the language of the guest\'s mail, the one they last used on the collection\'s page, else the one they were invited in; null: their contact\'s language, else the inviter\'s.', example: 'fr' }),
  })
  .openapi('Guest');

export const InviteGuestsRequestSchema = z
  .object({
    emails: z
      .array(EmailSchema, { error: 'emails must be an array of addresses' })
      .min(1, { error: 'emails must have at least 1 item' })
      .max(25, { error: 'emails must have at most 25 items' }),
    role: guestRole.default('viewer'),
    uploadFolderId: uploadFolderId.optional(),
    language: z
      .enum(LOCALES, { error: `language must be one of: ${LOCALES.join(', ')}` })
      .optional()
      .openapi({ description: `Our addition: the language of the invitation (${LOCALES.join(', ')}). Left out, each address gets their contact's \`language\`, else the inviter's own (Settings), else English. A guest's later mail follows the language they use on the collection's page.` }),
  })
  .superRefine((input, ctx) => {
    if (input.role === 'viewer' && input.uploadFolderId) ctx.addIssue({ code: 'custom', path: ['uploadFolderId'], message: 'uploadFolderId is only for a contributor' });
  })
  .openapi('InviteGuestsRequest', { description: 'Addresses invited before keep their row: their role and folder become the ones given here.' });

export const UpdateGuestRequestSchema = z
  .object({ role: guestRole, uploadFolderId: uploadFolderId.optional() })
  .superRefine((input, ctx) => {
    if (input.role === 'viewer' && input.uploadFolderId) ctx.addIssue({ code: 'custom', path: ['uploadFolderId'], message: 'uploadFolderId is only for a contributor' });
  })
  .openapi('UpdateGuestRequest');

export const GuestResponseSchema = z.object({ guest: GuestSchema }).openapi('GuestResponse');

export const InvitedGuestsSchema = z
  .object({ invited: z.array(z.string()).openapi({ description: 'The addresses invited (each mailed an invite), lower-cased and deduplicated.' }) })
  .openapi('InvitedGuests');

export const GuestListSchema = z.object({ guests: z.array(GuestSchema) }).openapi('GuestList');

export const GuestIdParamSchema = z.object({
  id: CollectionIdParamSchema.shape.id,
  guestId: resourceIdParam('guestId', 'gu', 'A guest id.', 'gu_2aB4cD6eF8gH0iJ2kL4m'),
});

export const CollectionDownloadLinksQuerySchema = z.object({
  folderId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'folderId', in: 'query' }, description: 'Only this folder and what is under it; the zip keeps the tree below it.' }),
});

export type Collection = z.infer<typeof CollectionSchema>;
export type CollectionFile = z.infer<typeof CollectionFileSchema>;
export type ListedCollectionFile = z.infer<typeof ListedCollectionFileSchema>;
export type Folder = z.infer<typeof FolderSchema>;
export type Guest = z.infer<typeof GuestSchema>;
export type CollectionSummary = z.infer<typeof CollectionSummarySchema>;
