import { bigint, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { workspaces } from './accounts.js';

// What the server keeps for itself: idempotent responses, usage counters, server-wide settings.

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
