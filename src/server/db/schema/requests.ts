import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { apiKeys, users, workspaces } from './accounts.js';
import { collectionFolders, collections } from './collections.js';
import { ts } from './columns.js';

/** What an upload request can be in: `open` ↔ `paused`, either → `closed`, which is final. */
export const UPLOAD_REQUEST_STATUSES = ['open', 'paused', 'closed'] as const;

/**
 * Upload requests: public pages (`/r/<slug>`) where anyone with the link sends files into a
 * collection (paid plan). A request outlives its collection: deleting the collection closes it and
 * clears `collection_id`, so the list still shows what it was.
 */
export const uploadRequests = pgTable(
  'upload_requests',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => collections.id, { onDelete: 'set null' }),
    /** Where submissions go; null for the collection's top level (also when that folder was deleted). */
    folderId: text('folder_id').references(() => collectionFolders.id, { onDelete: 'set null' }),
    /** The capability in the public link. Unguessable; never used to address the resource in the API. */
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    message: text('message'),
    status: text('status', { enum: UPLOAD_REQUEST_STATUSES }).notNull().default('open'),
    deadline: ts('deadline'),
    maxFiles: integer('max_files'),
    maxBytes: bigint('max_bytes', { mode: 'number' }),
    /** MIME types or `type/*`, lower-cased; empty for any. */
    allowedTypes: text('allowed_types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    requireEmail: boolean('require_email').notNull().default(false),
    /** The member who made it (null: made with an API key, or before teams). */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The API key it was made with, when it was. */
    createdByKey: text('created_by_key').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('upload_requests_workspace_idx').on(t.workspaceId, t.createdAt), index('upload_requests_collection_idx').on(t.collectionId)],
);

export const SUBMISSION_STATUSES = ['uploading', 'complete'] as const;

/**
 * One uploader's visit to a request: who they said they are (untrusted text), their message, and
 * the folder their files went into. `uploading` until the uploader has said they are done
 * (`finished_at`) and every file they kept has arrived; then `complete`, once, with the event.
 */
export const requestSubmissions = pgTable(
  'request_submissions',
  {
    id: text('id').primaryKey(),
    requestId: text('request_id')
      .notNull()
      .references(() => uploadRequests.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => collections.id, { onDelete: 'set null' }),
    folderId: text('folder_id').references(() => collectionFolders.id, { onDelete: 'set null' }),
    uploaderName: text('uploader_name').notNull(),
    uploaderEmail: text('uploader_email'),
    message: text('message'),
    /** SHA-256 of the token the uploader's page holds to add, cancel and finish its files. */
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('uploading'),
    finishedAt: ts('finished_at'),
    completedAt: ts('completed_at'),
    /** When the workspace was mailed about it; cleared again if the mail server said "later". */
    ownerNotifiedAt: ts('owner_notified_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('request_submissions_request_idx').on(t.requestId, t.createdAt), uniqueIndex('request_submissions_token_key').on(t.tokenHash)],
);
