import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { apiKeys, users, workspaces } from './accounts.js';
import { ts } from './columns.js';
import { files } from './files.js';

// Transfers and what their recipients do with them: recipients, page visits, download receipts.

/**
 * Two columns of `transfers` that the database keeps from the transfer's files (migration 0017's
 * triggers on `files`), so that the list's search and size order are each one index of
 * `transfers`: `file_names`, the names one per line in upload order, and `size_bytes`, their sum.
 * The server never writes them, and they are left out of the table below so that no `select()` of
 * a transfer reads the names (a transfer of 10,000 files holds hundreds of KB there). Migrations
 * are written by hand since 0010; a generated one would try to drop them.
 */
export const transferFileNames = sql<string>`"transfers"."file_names"`;
export const transferSizeBytes = sql<string>`"transfers"."size_bytes"`;

/**
 * A transfer: a draft until `finalizedAt` is set. `status` follows the spec (`active`, `expired`,
 * `infected`, `removed`); a draft is an `active` transfer that has not been finalized.
 *
 * Two moments, which differ only while URL imports run: `finalizedAt` is when the sender asked to
 * send it (from then on it is no draft: its files and draft fields are fixed, the draft sweep leaves
 * it alone); `readyAt` is when it was sent (the link works, recipients are mailed, `transfer.ready`),
 * which the API answers as the spec's `finalizedAt` ("null until sent") and this one as
 * `sendRequestedAt`.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The capability in the share URL. Unguessable; never used to address the resource in the API. */
    slug: text('slug').notNull().unique(),
    title: text('title'),
    message: text('message'),
    status: text('status', { enum: ['active', 'expired', 'infected', 'removed'] }).notNull().default('active'),
    e2ee: boolean('e2ee').notNull().default(false),
    /** Sealed metadata of an end-to-end encrypted transfer; opaque to the server. */
    e2eeMeta: text('e2ee_meta'),
    passwordHash: text('password_hash'),
    maxDownloads: integer('max_downloads'),
    downloadCount: integer('download_count').notNull().default(0),
    /** The size ceiling the transfer was created under. */
    maxBytes: bigint('max_bytes', { mode: 'number' }).notNull(),
    /** How it was created: through the API (counts toward API upload usage) or the dashboard. */
    origin: text('origin', { enum: ['api', 'web'] }).notNull(),
    finalizedAt: ts('finalized_at'),
    /** When it was sent (`transfer.ready` emitted): finalized, and no file still arriving. The API's `finalizedAt`. */
    readyAt: ts('ready_at'),
    expiresAt: ts('expires_at').notNull(),
    expiringNotifiedAt: ts('expiring_notified_at'),
    /** Mail the workspace when a visit downloads it / a day before expiry if nothing was downloaded. */
    notifyDownloads: boolean('notify_downloads').notNull().default(true),
    notifyBeforeExpiry: boolean('notify_before_expiry').notNull().default(true),
    /** When the "expires tomorrow, nobody downloaded it" mail went out (or was decided against). */
    expiryReminderAt: ts('expiry_reminder_at'),
    /** When its files were deleted from storage (expiry or revoke). */
    purgedAt: ts('purged_at'),
    /** The member who sent it (null: made with an API key, which acts as the owner, or before teams). */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The API key it was sent with, when it was (shown as the sender: "API key <name>"). */
    createdByKey: text('created_by_key').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('transfers_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    // "Mine" in the transfer list: a member's own transfers, newest first.
    index('transfers_workspace_creator_idx').on(t.workspaceId, t.createdBy, t.createdAt, t.id),
    index('transfers_expires_idx').on(t.expiresAt),
    // The list's other orders: `sort=size` and `sort=expiry`, within a workspace.
    index('transfers_workspace_size_idx').on(t.workspaceId, sql`"size_bytes"`, t.id),
    index('transfers_workspace_expires_idx').on(t.workspaceId, t.expiresAt, t.id),
    // `q` of the transfer list: ILIKE '%…%' on the title or the file names within a workspace (pg_trgm, btree_gin).
    index('transfers_search_trgm_idx').using('gin', t.workspaceId, t.title.op('gin_trgm_ops'), sql`"file_names" gin_trgm_ops`),
  ],
);

/** A transfer's own part of each of its files: which transfer, the folder path, and e2ee's sealed metadata. */
export const transferFiles = pgTable(
  'transfer_files',
  {
    fileId: text('file_id')
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    transferId: text('transfer_id').notNull().references(() => transfers.id, { onDelete: 'cascade' }),
    /** Relative folder path inside an uploaded folder, '/'-separated; null at top level. */
    path: text('path'),
    sealedMeta: text('sealed_meta'),
    sealedThumb: text('sealed_thumb'),
  },
  (t) => [index('transfer_files_transfer_idx').on(t.transferId)],
);

export const transferRecipients = pgTable(
  'transfer_recipients',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    transferId: text('transfer_id').notNull().references(() => transfers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** SHA-256 of the personal link token emailed to this recipient, which attributes downloads. */
    linkTokenHash: text('link_token_hash').notNull().unique(),
    notifiedAt: ts('notified_at'),
    downloadedAt: ts('downloaded_at'),
    bouncedAt: ts('bounced_at'),
    bounceKind: text('bounce_kind'),
    /** The language the sender chose for this recipient's mail; null: the contact's, else the sender's (transfers/send.ts). */
    language: text('language'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('transfer_recipients_transfer_email_key').on(t.transferId, t.email)],
);

/** One page visit of a recipient: its downloads share this session id and count once. */
export const downloadSessions = pgTable(
  'download_sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    transferId: text('transfer_id').notNull().references(() => transfers.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id').references(() => transferRecipients.id, { onDelete: 'set null' }),
    /** Set when the first download of the visit started: that is when it counts toward the limit. */
    countedAt: ts('counted_at'),
    /** When the workspace was mailed about this visit's download: at most once per visit. */
    senderNotifiedAt: ts('sender_notified_at'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('download_sessions_transfer_idx').on(t.transferId)],
);

/** Download receipts: one row per file (or whole-transfer zip) download started. */
export const downloads = pgTable(
  'downloads',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    transferId: text('transfer_id').notNull().references(() => transfers.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull().references(() => downloadSessions.id, { onDelete: 'cascade' }),
    /** Null for the whole-transfer zip. */
    fileId: text('file_id'),
    fileName: text('file_name'),
    recipientEmail: text('recipient_email'),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('downloads_transfer_created_idx').on(t.transferId, t.createdAt),
    // One receipt per file (or zip) per visit, however many Range requests resume it.
    uniqueIndex('downloads_session_file_key').on(t.sessionId, sql`coalesce(${t.fileId}, '')`),
  ],
);
