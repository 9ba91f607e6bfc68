import { z } from '@hono/zod-openapi';
import { resourceIdParam } from './ids.js';

/**
 * Collections: named sets of files with folders, guests and a visibility (paid plan). The spec
 * fixes CollectionSummary and Collection; how collections are listed, created, changed and deleted
 * is ours, documented on each operation.
 */

export const collectionVisibilities = ['private', 'public', 'password'] as const;
export type CollectionVisibility = (typeof collectionVisibilities)[number];

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

const password = z
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
    password: password.optional().openapi({
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
    password: password.optional().openapi({
      description: 'A new password; only with visibility `password` (sent now or already set).',
    }),
  })
  .openapi('UpdateCollectionRequest', {
    description: 'Only the fields given change.',
  });

const summaryFields = {
  id: z.string().openapi({ example: 'col_3kR8s0aQ2nVt7LbX4cRw' }),
  title: z.string(),
  slug: z.string().openapi({ description: 'The unguessable part of the secret link.' }),
  visibility: z.enum(collectionVisibilities),
  sizeBytes: z.number().int().min(0),
  coverFileId: z.string().nullable(),
  updatedAt: z.iso.datetime(),
};

export const CollectionSummarySchema = z.object({ ...summaryFields, fileCount: z.number().int().min(0) }).openapi('CollectionSummary');

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
    fileCount: z.number().int().min(0).optional().openapi({ description: 'Present on the single-collection read.' }),
    expiresAt: z.iso.datetime().nullable().openapi({ description: 'Null on a paid plan, where nothing expires.' }),
    createdAt: z.iso.datetime(),
  })
  .openapi('Collection');

export const CollectionResponseSchema = z.object({ collection: CollectionSchema }).openapi('CollectionResponse');
export const CollectionListSchema = z.object({ collections: z.array(CollectionSummarySchema) }).openapi('CollectionList');
export const CollectionDeletedSchema = z.object({ deleted: z.literal(true) }).openapi('CollectionDeleted');

export const CollectionIdParamSchema = z.object({
  id: resourceIdParam('id', 'col', 'A collection id (never its slug).', 'col_3kR8s0aQ2nVt7LbX4cRw'),
});

export type Collection = z.infer<typeof CollectionSchema>;
export type CollectionSummary = z.infer<typeof CollectionSummarySchema>;
