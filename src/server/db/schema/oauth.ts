import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Everything the OAuth authorization server (oidc-provider) keeps, one row per stored object of any
 * of its models (Grant, Client, AuthorizationCode, AccessToken, RefreshToken, Interaction, Session…),
 * shared by every instance. `id` is the SHA-256 of the value for every model whose id is a bearer
 * secret (tokens, codes, interaction and session ids): the database never holds a usable one. Grants
 * and clients keep their ids, which the dashboard lists and revokes by.
 */
export const oauthStore = pgTable(
  'oauth_store',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    /** `<workspaceId>/<userId>` of the owner who approved the grant. */
    accountId: text('account_id'),
    clientId: text('client_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    consumedAt: ts('consumed_at'),
    /** A grant's last use by any of its access tokens (to the minute), for Connected apps. */
    lastUsedAt: ts('last_used_at'),
    expiresAt: ts('expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oauth_store_grant_idx').on(t.grantId),
    index('oauth_store_uid_idx').on(t.uid),
    index('oauth_store_account_idx').on(t.accountId),
    index('oauth_store_expires_idx').on(t.expiresAt),
  ],
);
