import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { apiKeys, users, workspaces } from './accounts.js';

// The workspace address book.

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
    /** The language mail to this address is written in unless a sender chooses another; '' when not given. */
    language: text('language').notNull().default(''),
    /** The member who made it, by hand or by an import (null: made with an API key, or before teams). */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The API key it was made with, when it was. */
    createdByKey: text('created_by_key').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('contacts_workspace_email_key').on(t.workspaceId, sql`lower(${t.email})`),
    // `q` of the contact list: ILIKE '%…%' on "first last", company and email within a workspace (pg_trgm, btree_gin), as listContacts writes them.
    index('contacts_search_trgm_idx').using(
      'gin',
      t.workspaceId,
      sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`,
      t.company.op('gin_trgm_ops'),
      t.email.op('gin_trgm_ops'),
    ),
  ],
);
