import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { workspaces } from './accounts.js';
import { ts } from './columns.js';

// Collections: named sets of files with folders, guests and a visibility (paid plan).

export const collections = pgTable(
  'collections',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    /** The capability in the secret link. Unguessable; never used to address the resource in the API. */
    slug: text('slug').notNull().unique(),
    visibility: text('visibility', { enum: ['private', 'public', 'password'] }).notNull().default('private'),
    /** Set while visibility is (or was last) `password`; only the hash is kept. */
    passwordHash: text('password_hash'),
    /** Also served at `/<slug>` on the workspace's own domain. */
    customLink: boolean('custom_link').notNull().default(false),
    coverFileId: text('cover_file_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('collections_workspace_updated_idx').on(t.workspaceId, t.updatedAt)],
);
