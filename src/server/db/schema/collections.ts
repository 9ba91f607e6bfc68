import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { apiKeys, users, workspaces } from './accounts.js';
import { ts } from './columns.js';
import { files } from './files.js';
import { requestSubmissions } from './requests.js';

// Collections: named sets of files with folders, guests and a visibility (paid plan).

export const REVIEW_MAIL_CHOICES = ['daily', 'each', 'off'] as const;
export const REVIEW_STATES = ['approved', 'changes_requested'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** Who wrote a comment or decided a review: a member of the workspace, an API key, or a guest of the collection. */
export const REVIEWER_KINDS = ['member', 'key', 'guest'] as const;

export const collections = pgTable(
  'collections',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    /** The capability in the secret link. Unguessable; never used to address the resource in the API. */
    slug: text('slug').notNull().unique(),
    visibility: text('visibility', { enum: ['private', 'public', 'password'] })
      .notNull()
      .default('private'),
    /** Set while visibility is (or was last) `password`; only the hash is kept. */
    passwordHash: text('password_hash'),
    /** Also served at `/<slug>` on the workspace's own domain. */
    customLink: boolean('custom_link').notNull().default(false),
    coverFileId: text('cover_file_id'),
    /** How the workspace hears of its guests' comments and reviews: a daily digest, each one, or not by mail. */
    reviewMail: text('review_mail', { enum: REVIEW_MAIL_CHOICES }).notNull().default('daily'),
    /** When the last digest went (what happened after is the next one's). */
    reviewDigestAt: ts('review_digest_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('collections_workspace_updated_idx').on(t.workspaceId, t.updatedAt)],
);

/**
 * The secret links of deleted collections, kept so that someone who opens (or resolves) one is told
 * the collection was deleted (`410 link_unavailable`, reason `deleted`) rather than that the link
 * never worked. Slugs are unguessable and never reused, so keeping them reveals nothing new.
 */
export const deletedCollectionLinks = pgTable('deleted_collection_links', {
  slug: text('slug').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** Whether the collection was also at `/<slug>` on the workspace's own domain. */
  customLink: boolean('custom_link').notNull(),
  deletedAt: ts('deleted_at').notNull(),
});

/**
 * The slugs a collection had before its owner renamed its link: each still opens the collection (its page redirects
 * to the current slug) for as long as the collection exists, and no other collection may take it meanwhile.
 */
export const collectionFormerSlugs = pgTable(
  'collection_former_slugs',
  {
    slug: text('slug').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    replacedAt: ts('replaced_at').notNull(),
  },
  (t) => [index('collection_former_slugs_collection_idx').on(t.collectionId)],
);

/**
 * A collection's folders as a materialized path: `path` is the slash-separated names from the top
 * (`Shoot/Day 1/Raw`) and `depth` its number of ancestors, so a subtree is one prefix match and a
 * rename or move rewrites it in one statement. Names are unique among siblings regardless of case
 * (a zip unpacked on macOS or Windows would merge them otherwise), hence one unique lower(path).
 */
export const collectionFolders = pgTable(
  'collection_folders',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    parentId: text('parent_id').references((): AnyPgColumn => collectionFolders.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path').notNull(),
    depth: integer('depth').notNull(),
    createdAt: ts('created_at').notNull(),
    /** In the trash since then (collections/trash.ts): out of every listing; its path is moved out of the live tree. */
    trashedAt: ts('trashed_at'),
    /** What the owner deleted that took this folder along: the id of the folder at the top. */
    trashBatch: text('trash_batch'),
    /** The top of a trashed subtree only: the parent and the path it had, to go back to. */
    trashedFromParentId: text('trashed_from_parent_id'),
    trashedPath: text('trashed_path'),
  },
  (t) => [
    index('collection_folders_trash_idx').on(t.collectionId, t.trashBatch).where(sql`${t.trashedAt} is not null`),
    index('collection_folders_trashed_at_idx').on(t.trashedAt).where(sql`${t.trashedAt} is not null`),
    uniqueIndex('collection_folders_path_key').on(t.collectionId, sql`lower(${t.path})`),
    index('collection_folders_parent_idx').on(t.parentId),
    // Subtree lookups: `path` starting with a prefix, whatever the collation.
    index('collection_folders_path_prefix_idx').on(t.collectionId, sql`${t.path} text_pattern_ops`),
  ],
);

/** What a file brought into a collection came through: `collection.file_uploaded`'s `source`. */
export const COLLECTION_FILE_SOURCES = ['web', 'api', 'import', 'file_request'] as const;
export type CollectionFileSource = (typeof COLLECTION_FILE_SOURCES)[number];

/** A collection's own part of each of its files (the engine's row is in `files`): its folder and where it came from. */
export const collectionFiles = pgTable(
  'collection_files',
  {
    fileId: text('file_id')
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    /** Null at the top level. Deleting a folder deletes its files first (their bytes go too), so no cascade here. */
    folderId: text('folder_id').references(() => collectionFolders.id),
    source: text('source', { enum: COLLECTION_FILE_SOURCES }).notNull(),
    /** Who sent it through an upload request (untrusted text); null otherwise. */
    uploaderName: text('uploader_name'),
    uploaderEmail: text('uploader_email'),
    /** The member who added it, or the API key (teams); null for an uploader's and for files from before. */
    addedBy: text('added_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    addedByKey: text('added_by_key').references((): AnyPgColumn => apiKeys.id, { onDelete: 'set null' }),
    /** The guest who contributed it, and their address then (kept if the guest is removed). */
    addedByGuest: text('added_by_guest').references((): AnyPgColumn => collectionGuests.id, { onDelete: 'set null' }),
    addedByGuestEmail: text('added_by_guest_email'),
    /** The upload request's submission that brought it; null otherwise. */
    submissionId: text('submission_id').references((): AnyPgColumn => requestSubmissions.id, { onDelete: 'set null' }),
    /** When `collection.file_uploaded` was emitted for it: set once, so the event is never sent twice. */
    announcedAt: ts('announced_at'),
    /** The latest review decision on the file (collections/review.ts), by whom and when; null until one. */
    reviewState: text('review_state', { enum: REVIEW_STATES }),
    reviewedByKind: text('reviewed_by_kind', { enum: REVIEWER_KINDS }),
    reviewedByEmail: text('reviewed_by_email'),
    reviewedAt: ts('reviewed_at'),
    /** In the trash since then (collections/trash.ts): out of every listing, zip and link until restored or purged. */
    trashedAt: ts('trashed_at'),
    /** What the owner deleted that took this file along: its own id, or the id of the folder it was in. */
    trashBatch: text('trash_batch'),
    /** A file trashed on its own: the folder it was in (its `folderId` is cleared, so that folder may go for good). */
    trashedFromFolderId: text('trashed_from_folder_id'),
  },
  (t) => [
    index('collection_files_trash_idx').on(t.collectionId, t.trashBatch).where(sql`${t.trashedAt} is not null`),
    index('collection_files_trashed_at_idx').on(t.trashedAt).where(sql`${t.trashedAt} is not null`),
    index('collection_files_collection_idx').on(t.collectionId),
    index('collection_files_folder_idx').on(t.folderId),
    index('collection_files_submission_idx').on(t.submissionId),
  ],
);

export const GUEST_ROLES = ['viewer', 'contributor'] as const;
export type GuestRole = (typeof GUEST_ROLES)[number];

/** People invited to one collection. Not workspace members; free on every plan. */
export const collectionGuests = pgTable(
  'collection_guests',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    /** A viewer opens and downloads; a contributor may also upload (collections/contributions.ts). */
    role: text('role', { enum: GUEST_ROLES }).notNull().default('viewer'),
    /** A contributor's one folder (and what is under it); null: anywhere. No foreign key: a folder gone means nowhere. */
    uploadFolderId: text('upload_folder_id'),
    invitedAt: ts('invited_at').notNull(),
    lastVisitAt: ts('last_visit_at'),
    /** The language of the guest's mail: the one they last used on the collection's page, else the one they were invited in. */
    language: text('language'),
  },
  (t) => [uniqueIndex('collection_guests_collection_email_key').on(t.collectionId, t.email)],
);

/** One-time sign-in links mailed to a guest (hashed; 15 minutes; used once). */
export const guestSignIns = pgTable(
  'guest_sign_ins',
  {
    tokenHash: text('token_hash').primaryKey(),
    guestId: text('guest_id')
      .notNull()
      .references(() => collectionGuests.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('guest_sign_ins_guest_idx').on(t.guestId), index('guest_sign_ins_expires_idx').on(t.expiresAt)],
);

/** Comments on a collection's files, threaded by file: plain text from guests and the workspace's members and keys. */
export const collectionComments = pgTable(
  'collection_comments',
  {
    id: text('id').primaryKey(),
    /** Writing order: a thread reads in it, whatever the clock said (two comments may share an instant). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    authorKind: text('author_kind', { enum: REVIEWER_KINDS }).notNull(),
    /** The member's, key's or guest's id; kept as it was when they are gone (no foreign key), with the address and name of then. */
    authorId: text('author_id'),
    authorEmail: text('author_email'),
    authorName: text('author_name'),
    /** Untrusted text: shown as text, never markup. */
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('collection_comments_file_idx').on(t.fileId, t.createdAt), index('collection_comments_collection_idx').on(t.collectionId, t.createdAt)],
);
