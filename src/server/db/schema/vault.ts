import { index, jsonb, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { VaultRecord } from '../../../contract/vault.js';
import { users, workspaces } from './accounts.js';
import { ts } from './columns.js';
import { files } from './files.js';

// The vault: a client-side encrypted store of one user. Everything in it but sizes and times was
// sealed in the browser; the server could not read it if it wanted to.

/**
 * One vault per user (the passphrase is a person's, not a workspace's), carrying the workspace so
 * every query filters by it as everywhere else. `record` is the browser's JSON (KDF parameters and
 * the master key wrapped under the passphrase and under the recovery key), checked against the
 * contract's VaultRecordSchema on every write.
 */
export const vaults = pgTable(
  'vaults',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    record: jsonb('record').$type<VaultRecord>().notNull(),
    createdAt: ts('created_at').notNull(),
    /** When the record was created or last replaced (passphrase change, recovery). */
    updatedAt: ts('updated_at').notNull(),
    /** When items were last registered: an unfinished upload is kept a week past it (tus Upload-Expires). */
    itemsChangedAt: ts('items_changed_at').notNull(),
  },
  (t) => [index('vaults_workspace_idx').on(t.workspaceId)],
);

/** Folders of a vault: a plain tree by parent (names are sealed, so there is no path to match on). */
export const vaultFolders = pgTable(
  'vault_folders',
  {
    id: text('id').primaryKey(),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id, { onDelete: 'cascade' }),
    /** Null at the top. Deleting a folder deletes its items first (their bytes go too), then its subtree by this cascade. */
    parentId: text('parent_id').references((): AnyPgColumn => vaultFolders.id, { onDelete: 'cascade' }),
    sealedName: text('sealed_name').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('vault_folders_vault_idx').on(t.vaultId), index('vault_folders_parent_idx').on(t.parentId)],
);

/**
 * The vault's own part of each of its files (the engine's row in `files` has owner kind `vault`,
 * name `encrypted`, type application/octet-stream and the ciphertext's exact size).
 */
export const vaultItems = pgTable(
  'vault_items',
  {
    fileId: text('file_id')
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id, { onDelete: 'cascade' }),
    /** Null at the top. No cascade: a folder is deleted only after its items (and their bytes). */
    folderId: text('folder_id').references(() => vaultFolders.id),
    sealedMeta: text('sealed_meta').notNull(),
    /** "" until the browser has sealed a thumbnail, or for files without one. */
    sealedThumb: text('sealed_thumb').notNull().default(''),
    /** The file's key, wrapped in the browser under a key derived from the master key. */
    wrappedKey: text('wrapped_key').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('vault_items_vault_idx').on(t.vaultId), index('vault_items_folder_idx').on(t.folderId)],
);
