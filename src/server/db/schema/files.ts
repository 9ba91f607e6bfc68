import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { workspaces } from './accounts.js';
import { ts } from './columns.js';

// The file engine: one row per stored file whatever owns it, and the tokens that let its bytes in.

/** What can own files. Each kind registers a FileOwner (files/owners.ts); its own details live in its own table. */
export const FILE_OWNER_KINDS = ['transfer', 'collection', 'vault'] as const;
export type FileOwnerKind = (typeof FILE_OWNER_KINDS)[number];

/**
 * Every stored file, whatever owns it: what the upload, CRC, storage, download and zip machinery
 * needs and nothing of the owner. `ownerKind` and `ownerId` name the owner (a transfer today); what
 * only that kind of owner has (a transfer file's folder path, sealed metadata) sits in the owner's
 * table beside it, keyed by the file id.
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    ownerKind: text('owner_kind', { enum: FILE_OWNER_KINDS }).notNull(),
    /** The owner's id; no foreign key (it names rows of several tables): owners delete their files. */
    ownerId: text('owner_id').notNull(),
    /** Registration order: files registered in one call share a timestamp but keep their order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    /** The registered size: the upload must be exactly this long. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    /** Where the bytes come from: a tus upload, or a URL the service imports. */
    source: text('source', { enum: ['upload', 'import'] }).notNull().default('upload'),
    importUrl: text('import_url'),
    /** An import's origin validator (strong ETag, else Last-Modified), so a resumed fetch asks for the same bytes with If-Range. */
    importValidator: text('import_validator'),
    /** Whoever fetches an import holds it until then, renewing as parts land; a lapsed lease (a crashed worker) lets another resume it. */
    importLeaseUntil: ts('import_lease_until'),
    /** Who holds the lease (a fresh token per claim): a worker that froze past its lease and woke up finds it taken and stops. */
    importLeaseHolder: text('import_lease_holder'),
    /** Fetches started for an import; one that keeps failing is given up. */
    importAttempts: integer('import_attempts').notNull().default(0),
    state: text('state', { enum: ['uploading', 'importing', 'complete', 'failed'] }).notNull(),
    error: text('error'),
    /** Key of the bytes in file storage. */
    storageKey: text('storage_key').notNull(),
    /** Running CRC-32 of the first `crcOffset` bytes, so a resumed upload continues it. */
    crcState: bigint('crc_state', { mode: 'number' }).notNull().default(0),
    crcOffset: bigint('crc_offset', { mode: 'number' }).notNull().default(0),
    /** Final CRC-32 (IEEE) as 8 lower-case hex digits, set when the upload completes. */
    crc32: text('crc32'),
    /** The virus scan's verdict: null until scanned (or when no scanner is configured), then `clean` or `infected`. */
    scanResult: text('scan_result', { enum: ['clean', 'infected'] }),
    /** The scanner's name for what it found (owner-only). */
    scanSignature: text('scan_signature'),
    /** Whoever scans a file holds it until then; after a failed scan, the earliest time of the next try. */
    scanLeaseUntil: ts('scan_lease_until'),
    /** Why the last scan did not finish (clamd down, slow, or refusing the file); null once scanned. */
    scanError: text('scan_error'),
    /** Scans tried for a file (a scanner that is down is retried with growing waits). */
    scanAttempts: integer('scan_attempts').notNull().default(0),
    /**
     * Preview made by the worker (an image's thumbnail, a video's poster, an audio file's waveform, a PDF's first
     * page): null until tried, then `ready` (at `thumbnailKey`) or `failed` (or nothing to preview).
     */
    thumbnailState: text('thumbnail_state', { enum: ['ready', 'failed'] }),
    thumbnailKey: text('thumbnail_key'),
    /** Whoever makes a preview holds the file until then; a lapsed lease (a crashed worker) lets another try. */
    thumbnailLeaseUntil: ts('thumbnail_lease_until'),
    /** Tries so far: a file that keeps killing its worker is given up rather than tried forever. */
    thumbnailAttempts: integer('thumbnail_attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('files_owner_idx').on(t.ownerKind, t.ownerId, t.seq),
    // The importer's queue: imports not finished yet.
    index('files_importing_idx').on(t.importLeaseUntil).where(sql`${t.state} = 'importing'`),
    // The scanner's queue: complete files not scanned yet.
    index('files_scan_due_idx').on(t.scanLeaseUntil).where(sql`${t.scanResult} is null and ${t.state} = 'complete'`),
    // The previews' queue: complete files not tried yet.
    index('files_thumbnail_due_idx').on(t.completedAt).where(sql`${t.thumbnailState} is null and ${t.state} = 'complete'`),
  ],
);

export type FileRecord = typeof files.$inferSelect;

/** Per-file upload tokens (hashed). A renewal issues a new token; the old one stays valid until it expires. */
export const uploadTokens = pgTable(
  'upload_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    fileId: text('file_id').notNull().references(() => files.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('upload_tokens_file_idx').on(t.fileId), index('upload_tokens_expires_idx').on(t.expiresAt)],
);
