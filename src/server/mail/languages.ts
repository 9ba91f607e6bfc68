import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { contacts, users } from '../db/schema/index.js';

/**
 * Who reads in which language, for the defaults of mail (mailLocale takes the first that is set): the address
 * book's language for an address, and the language a person picked in Settings.
 */

/** The language of each of these addresses (lower-cased) that the workspace's address book gives one. */
export async function contactLanguages(db: Pick<Database, 'select'>, workspaceId: string, emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: sql<string>`lower(${contacts.email})`, language: contacts.language })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), inArray(sql`lower(${contacts.email})`, [...emails]), ne(contacts.language, '')));
  return new Map(rows.map((c) => [c.email, c.language]));
}

/** The language a person picked for their mail, or null (nobody chose: the next default). */
export async function userLocale(db: Pick<Database, 'select'>, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  return row?.locale ?? null;
}
