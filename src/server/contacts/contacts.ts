import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Contact, ContactInputSchema } from '../../contract/contacts.js';
import type { Caller } from '../core/caller.js';
import { ApiError, notFound } from '../core/errors.js';
import { likeContains } from '../core/like.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { contacts } from '../db/schema/index.js';
import type { Services } from '../services.js';

/**
 * The workspace address book: the operations the API, the dashboard and the MCP server call, as
 * plain functions of the services, the caller and the parsed input. Every lookup is by id and
 * workspace together, so another workspace's id is simply not found.
 */

export type ContactInput = z.output<typeof ContactInputSchema>;
type ContactServices = Pick<Services, 'db' | 'clock'>;

export type ContactRow = typeof contacts.$inferSelect;

/** The one place a stored row becomes the Contact of the contract. */
export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    email: row.email,
    phone: row.phone,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const byId = (workspaceId: string, id: string) => and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id));

const contactNotFound = () => notFound('Contact');

/**
 * The 409 for a second contact with the same address. Looks up the contact holding it so the
 * client can update that one instead; `exceptId` leaves out the contact being replaced.
 */
async function contactExists(db: Database, workspaceId: string, email: string, exceptId?: string): Promise<ApiError> {
  const [holder] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        sql`lower(${contacts.email}) = lower(${email})`,
        exceptId === undefined ? undefined : ne(contacts.id, exceptId),
      ),
    );
  return new ApiError('conflict', 'A contact with this email address already exists in the workspace', {
    reason: 'contact_exists',
    contactId: holder?.id ?? null,
  });
}

/** True for the unique index on (workspace, lower(email)); drizzle wraps the driver's error in `cause`. */
function isDuplicateEmail(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgError = e as Error & { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'contacts_workspace_email_key') return true;
  }
  return false;
}


/** The workspace's contacts (those matching `q` in name, company or email), by last name, first name, email. */
export async function listContacts(services: Pick<Services, 'db'>, caller: Caller, q?: string): Promise<Contact[]> {
  const pattern = q ? likeContains(q) : null;
  const matches =
    pattern === null
      ? undefined
      : sql`(concat_ws(' ', ${contacts.firstName}, ${contacts.lastName}) ILIKE ${pattern} ESCAPE '\\'
          OR ${contacts.company} ILIKE ${pattern} ESCAPE '\\'
          OR ${contacts.email} ILIKE ${pattern} ESCAPE '\\')`;
  // Code-point order ("C") after lower-casing, so the order is the same whatever the database locale.
  const rows = await services.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, caller.workspaceId), matches))
    .orderBy(
      sql`nullif(lower(${contacts.lastName}), '') COLLATE "C" ASC NULLS LAST`,
      sql`nullif(lower(${contacts.firstName}), '') COLLATE "C" ASC NULLS LAST`,
      sql`${contacts.email} COLLATE "C"`,
      contacts.id,
    );
  return rows.map(toContact);
}

export async function getContact(services: Pick<Services, 'db'>, caller: Caller, id: string): Promise<Contact> {
  const [row] = await services.db.select().from(contacts).where(byId(caller.workspaceId, id));
  if (!row) throw contactNotFound();
  return toContact(row);
}

/** A new contact; an address already in the workspace is 409 `contact_exists` naming the contact that has it. */
export async function createContact(services: ContactServices, caller: Caller, input: ContactInput): Promise<Contact> {
  const now = services.clock.now();
  // ON CONFLICT DO NOTHING rather than a check first: two creates racing for one address get one row and one 409.
  const [row] = await services.db
    .insert(contacts)
    .values({ id: newId('ct'), workspaceId: caller.workspaceId, ...input, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw await contactExists(services.db, caller.workspaceId, input.email);
  return toContact(row);
}

/** Replaces every field (those left out reset to their defaults); `id` and `createdAt` stay. */
export async function replaceContact(services: ContactServices, caller: Caller, id: string, input: ContactInput): Promise<Contact> {
  let row;
  try {
    [row] = await services.db
      .update(contacts)
      .set({ ...input, updatedAt: services.clock.now() })
      .where(byId(caller.workspaceId, id))
      .returning();
  } catch (err) {
    if (isDuplicateEmail(err)) throw await contactExists(services.db, caller.workspaceId, input.email, id);
    throw err;
  }
  if (!row) throw contactNotFound();
  return toContact(row);
}

export async function deleteContact(services: Pick<Services, 'db'>, caller: Caller, id: string): Promise<{ deleted: true }> {
  const deleted = await services.db.delete(contacts).where(byId(caller.workspaceId, id)).returning({ id: contacts.id });
  if (deleted.length === 0) throw contactNotFound();
  return { deleted: true };
}
