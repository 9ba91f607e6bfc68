import { and, eq, ne, sql } from 'drizzle-orm';
import type { Contact } from '../../../../contract/contacts.js';
import type { Database } from '../../../db/connection.js';
import { contacts } from '../../../db/schema/index.js';
import { ApiError, notFound } from '../../../core/errors.js';

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

/** Every lookup is by id and workspace together, so another workspace's id is simply not found. */
export const byId = (workspaceId: string, id: string) => and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id));

export const contactNotFound = () => notFound('Contact');

/**
 * The 409 for a second contact with the same address. Looks up the contact holding it so the
 * client can update that one instead; `exceptId` leaves out the contact being replaced.
 */
export async function contactExists(db: Database, workspaceId: string, email: string, exceptId?: string): Promise<ApiError> {
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
export function isDuplicateEmail(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgError = e as Error & { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'contacts_workspace_email_key') return true;
  }
  return false;
}
