import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: ['free', 'paid'] }).notNull().default('free'),
  /** A paid plan lapses at this instant; null means it runs until changed. */
  planUntil: ts('plan_until'),
  everPaid: boolean('ever_paid').notNull().default(false),
  /** Prepaid credit in millionths of a euro, so that per-byte charges never round away. */
  creditMicroEur: bigint('credit_micro_eur', { mode: 'number' }).notNull().default(0),
  customDomain: text('custom_domain'),
  referralCode: text('referral_code').notNull().unique(),
  referredBy: text('referred_by'),
  /** Set by the operator: the workspace's links, keys and sign-ins stop until it is enabled again. */
  disabledAt: ts('disabled_at'),
  /** Defaults for new transfers: mail the workspace when a transfer is downloaded / is about to expire unseen. */
  notifyDownloads: boolean('notify_downloads').notNull().default(true),
  notifyBeforeExpiry: boolean('notify_before_expiry').notNull().default(true),
  createdAt: ts('created_at').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The person who runs this server: the first account created on it. Sees the Admin page. */
    isOperator: boolean('is_operator').notNull().default(false),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

/** An address the operator invited to sign up while sign-up is `invite`; the token is mailed, only its hash kept. */
export const signupInvites = pgTable(
  'signup_invites',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
  },
  (t) => [index('signup_invites_email_idx').on(sql`lower(${t.email})`)],
);

/** A mailed password-reset link: single use, short-lived; only the token's hash is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.expiresAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie value; the value itself is never stored. */
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    hint: text('hint').notNull(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('api_keys_workspace_idx').on(t.workspaceId)],
);

/** Short-lived bearer tokens: the dashboard's (minted from a session) and, later, OAuth access tokens. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['session', 'oauth'] }).notNull(),
    /** The dashboard session a `session` token was minted from: signing out deletes its tokens. */
    sessionIdHash: text('session_id_hash').references(() => sessions.idHash, { onDelete: 'cascade' }),
    clientId: text('client_id'),
    scopes: text('scopes').array().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('access_tokens_expires_idx').on(t.expiresAt), index('access_tokens_session_idx').on(t.sessionIdHash)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path and exact body: the request the key is bound to. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    /** A running claim older than this was left by a crashed request and may be taken over. */
    lockedUntil: ts('locked_until').notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /**
     * The response body sealed with AES-256-GCM (see auth/sealing.ts), base64url: it can carry
     * secrets shown once (upload tokens, webhook signing secrets), which never sit in plain text.
     */
    responseSealed: text('response_sealed'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

export const monthlyUsage = pgTable(
  'monthly_usage',
  {
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Calendar month in UTC, as YYYY-MM. */
    month: text('month').notNull(),
    apiCalls: bigint('api_calls', { mode: 'number' }).notNull().default(0),
    apiUploadBytes: bigint('api_upload_bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.month] })],
);

/** Server-wide values every instance must agree on, such as the key that signs pagination cursors. */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** The workspace address book. `email` is stored lower-cased and is unique in its workspace. */
export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    company: text('company').notNull().default(''),
    phone: text('phone').notNull().default(''),
    type: text('type', { enum: ['person', 'company'] }).notNull().default('person'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('contacts_workspace_email_key').on(t.workspaceId, sql`lower(${t.email})`)],
);

/**
 * A transfer: a draft until `finalizedAt` is set. `status` follows the spec (`active`, `expired`,
 * `infected`, `removed`); a draft is an `active` transfer that has not been sent.
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
    /** When `transfer.ready` was emitted: sent and every file complete. */
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
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('transfers_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('transfers_expires_idx').on(t.expiresAt),
  ],
);

export const transferFiles = pgTable(
  'transfer_files',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    transferId: text('transfer_id').notNull().references(() => transfers.id, { onDelete: 'cascade' }),
    /** Registration order: files registered in one call share a timestamp but keep their order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    /** Relative folder path inside an uploaded folder, '/'-separated; null at top level. */
    path: text('path'),
    /** Where the bytes come from: a tus upload, or a URL the service imports. */
    source: text('source', { enum: ['upload', 'import'] }).notNull().default('upload'),
    importUrl: text('import_url'),
    state: text('state', { enum: ['uploading', 'importing', 'complete', 'failed'] }).notNull(),
    error: text('error'),
    /** Key of the bytes in file storage. */
    storageKey: text('storage_key').notNull(),
    /** Running CRC-32 of the first `crcOffset` bytes, so a resumed upload continues it. */
    crcState: bigint('crc_state', { mode: 'number' }).notNull().default(0),
    crcOffset: bigint('crc_offset', { mode: 'number' }).notNull().default(0),
    /** Final CRC-32 (IEEE) as 8 lower-case hex digits, set when the upload completes. */
    crc32: text('crc32'),
    scanResult: text('scan_result'),
    sealedMeta: text('sealed_meta'),
    sealedThumb: text('sealed_thumb'),
    /** Preview of an image, made by the worker: null until tried, then `ready` (at `thumbnailKey`) or `failed`. */
    thumbnailState: text('thumbnail_state', { enum: ['ready', 'failed'] }),
    thumbnailKey: text('thumbnail_key'),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('transfer_files_transfer_idx').on(t.transferId, t.seq),
    // The thumbnail job's queue: complete images not tried yet.
    index('transfer_files_thumbnail_due_idx').on(t.completedAt).where(sql`${t.thumbnailState} is null and ${t.state} = 'complete' and ${t.mimeType} like 'image/%'`),
  ],
);

/** Per-file upload tokens (hashed). A renewal issues a new token; the old one stays valid until it expires. */
export const uploadTokens = pgTable(
  'upload_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    fileId: text('file_id').notNull().references(() => transferFiles.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('upload_tokens_file_idx').on(t.fileId), index('upload_tokens_expires_idx').on(t.expiresAt)],
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

/**
 * Events with the spec's envelope (`id`, `type`, `createdAt`, `data`). `transferId` lets
 * `transfer.expired` delete the transfer's earlier ready, expiring and downloaded events.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    transferId: text('transfer_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('events_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id), index('events_transfer_idx').on(t.transferId)],
);

/**
 * Webhook endpoints. `url` null is a pull endpoint. The signing secret has to be kept usable (an
 * HMAC key cannot be a hash); it is never logged and never returned after creation or rotation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url'),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    signingSecret: text('signing_secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** Deliveries in a row that used up every retry; five pause the endpoint. Any success resets it. */
    exhaustedInRow: integer('exhausted_in_row').notNull().default(0),
    /** The highest `seq` given to this pull endpoint's events; never goes down, even when events are deleted. */
    pullSeq: bigint('pull_seq', { mode: 'number' }).notNull().default(0),
    lastSuccessAt: ts('last_success_at'),
    lastFailureAt: ts('last_failure_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint. Push deliveries are a small state machine the dispatcher claims
 * with FOR UPDATE SKIP LOCKED and a lease; pull deliveries are the endpoint's readable feed.
 * The body is stored as sent, so a redelivery carries the same event id and bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    mode: text('mode', { enum: ['push', 'pull'] }).notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    eventCreatedAt: ts('event_created_at').notNull(),
    /** The exact JSON body (the signed bytes). */
    body: text('body').notNull(),
    transferId: text('transfer_id'),
    /** Push: `pending` until a 2xx (`succeeded`) or every scheduled attempt failed (`failed`). Pull: `stored`. */
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'stored'] }).notNull(),
    /** Attempts made, redeliveries included; `scheduledAttempts` counts only the automatic ones. */
    attempts: integer('attempts').notNull().default(0),
    scheduledAttempts: integer('scheduled_attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    /** A dispatcher holds the delivery until then; after a crash another one takes it over. */
    leaseUntil: ts('lease_until'),
    /** The next scheduled attempt runs even while the endpoint is paused (a requested test). */
    force: boolean('force').notNull().default(false),
    /**
     * Redeliveries requested and not yet attempted: one attempt now, whatever the status. A count,
     * not a flag, so that a request made while an attempt is on the wire is not cleared by it.
     */
    redeliveryRequests: integer('redelivery_requests').notNull().default(0),
    /**
     * Pull order, given at read time with the endpoint row locked, in commit order: a reader can
     * never be handed a cursor past an event that commits later.
     */
    seq: bigint('seq', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_redelivery_idx').on(t.id).where(sql`${t.redeliveryRequests} > 0`),
    index('webhook_deliveries_endpoint_seq_idx').on(t.endpointId, t.seq),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_transfer_idx').on(t.transferId),
  ],
);

/** Each HTTP attempt of a push delivery, for the dashboard and `GET /webhooks/{id}/deliveries`. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    manual: boolean('manual').notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    success: boolean('success').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    nextRetryAt: ts('next_retry_at'),
    responseBody: text('response_body'),
  },
  (t) => [index('webhook_attempts_endpoint_idx').on(t.endpointId, t.attemptedAt), index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);
