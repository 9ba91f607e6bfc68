import { and, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { MAX_SYNC_CONTACTS, type Contact, type ContactInputSchema, type SyncContactsResponse } from '../../contract/contacts.js';
import type { Sender } from '../../contract/transfers.js';
import type { Caller } from '../core/caller.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { likeContains } from '../core/like.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { contacts } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { said } from '../core/sentences.js';
import { creatorColumns, creatorOf, creatorOfCaller } from '../workspaces/creators.js';

/**
 * The workspace address book: the operations the API, the dashboard and the MCP server call, as
 * plain functions of the services, the caller and the parsed input. Every lookup is by id and
 * workspace together, so another workspace's id is simply not found.
 */

export type ContactInput = z.output<typeof ContactInputSchema>;
type ContactServices = Pick<Services, 'db' | 'clock'>;

export type ContactRow = typeof contacts.$inferSelect;
/** A stored row with who made it, as every read of a contact selects it (contactColumns). */
type ContactWithCreator = ContactRow & { creator: Sender | null };

/** A contact's columns and its creator, read in one statement. */
const contactColumns = { ...getTableColumns(contacts), creator: creatorOf(contacts) };

/** The one place a stored row becomes the Contact of the contract. */
export function toContact(row: ContactWithCreator): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    email: row.email,
    phone: row.phone,
    type: row.type,
    language: row.language,
    createdBy: row.creator,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const byId = (workspaceId: string, id: string) => and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id));

const contactNotFound = () => notFound(said({ id: 'api.contacts.contactNotFound', defaultMessage: 'Contact not found' }));

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
  return new ApiError('conflict', said({ id: 'api.contacts.contactEmailAddressAlready', defaultMessage: 'A contact with this email address already exists in the workspace' }), {
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
  // Each text exactly as contacts_search_trgm_idx indexes it: `first || ' ' || last` (concat_ws gives the same
  // text for these NOT NULL columns, but cannot be indexed).
  const matches =
    pattern === null
      ? undefined
      : sql`((${contacts.firstName} || ' ' || ${contacts.lastName}) ILIKE ${pattern} ESCAPE '\\'
          OR ${contacts.company} ILIKE ${pattern} ESCAPE '\\'
          OR ${contacts.email} ILIKE ${pattern} ESCAPE '\\')`;
  // Code-point order ("C") after lower-casing, so the order is the same whatever the database locale.
  const rows = await services.db
    .select(contactColumns)
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
  const [row] = await services.db.select(contactColumns).from(contacts).where(byId(caller.workspaceId, id));
  if (!row) throw contactNotFound();
  return toContact(row);
}

/** A new contact; an address already in the workspace is 409 `contact_exists` naming the contact that has it. */
export async function createContact(services: ContactServices, caller: Caller, input: ContactInput): Promise<Contact> {
  const now = services.clock.now();
  // ON CONFLICT DO NOTHING rather than a check first: two creates racing for one address get one row and one 409.
  const [row] = await services.db
    .insert(contacts)
    .values({ id: newId('ct'), workspaceId: caller.workspaceId, ...input, ...creatorColumns(creatorOfCaller(caller)), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning(contactColumns);
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
      .returning(contactColumns);
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

/** The fields a sync writes, in the order of the VALUES list of its batched UPDATE. */
const syncedFields = ['email', 'firstName', 'lastName', 'company', 'phone', 'type', 'language'] as const;

const sameFields = (row: ContactRow, input: ContactInput) => syncedFields.every((f) => row[f] === input[f]);

/** Postgres broke a lock cycle by aborting this transaction (should not happen given the lock order, but is safe to rerun). */
function isDeadlock(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if ((e as Error & { code?: string }).code === '40P01') return true;
  return false;
}

/** How often a sync that lost a race for a new address (unique violation) is run again from the start. */
const SYNC_ATTEMPTS = 3;

/**
 * Bulk upsert, matched by email case-insensitively: an address new to the workspace is created,
 * a known one is replaced entirely by its entry (fields left out reset to their defaults, as
 * `replaceContact` does), and one whose stored fields already equal the entry is left alone
 * (counted `unchanged`, `updatedAt` untouched). All or nothing, in one transaction: one SELECT of
 * the known contacts (locked), one multi-row INSERT, one UPDATE … FROM (VALUES …) for the changed.
 * The answer's contacts are in the order of `inputs`.
 *
 * Called by `POST /api/v1/contacts/sync` and by the dashboard's CSV import, each saying who imports
 * (the creator of the contacts it creates; those it replaces keep theirs): the caller
 * validates each entry with ContactInputSchema first (so every entry here is valid); repeated
 * emails are refused here as well, as `400` naming `contacts.<index>.email`.
 */
export async function syncContacts(
  services: ContactServices,
  importer: { workspaceId: string; creator: Sender | null },
  inputs: ContactInput[],
  { max = MAX_SYNC_CONTACTS }: { max?: number } = {},
): Promise<SyncContactsResponse> {
  if (inputs.length > max) throw invalidField('body', 'contacts', said({ id: 'api.contacts.tooMany', defaultMessage: 'contacts must hold at most {max} contacts' }, { max: String(max) }));
  const firstIndex = new Map<string, number>();
  inputs.forEach((input, index) => {
    const first = firstIndex.get(input.email);
    if (first !== undefined) throw invalidField('body', `contacts.${index}.email`, said({ id: 'api.contacts.duplicateEmail', defaultMessage: 'email repeats entry {first} of this call', description: 'first: the index of the earlier entry (a number)' }, { first: String(first) }));
    firstIndex.set(input.email, index);
  });
  if (inputs.length === 0) return { created: 0, updated: 0, unchanged: 0, contacts: [] };

  for (let attempt = 1; ; attempt++) {
    try {
      return await syncOnce(services, importer, inputs);
    } catch (err) {
      // Another writer created one of the new addresses meanwhile: the transaction rolled back, and a rerun updates it instead.
      if (!(isDuplicateEmail(err) || isDeadlock(err)) || attempt >= SYNC_ATTEMPTS) throw err;
    }
  }
}

/** Rows per INSERT or UPDATE statement: well under PostgreSQL's 65,535 bind parameters per statement, for imports of many thousands. */
const SYNC_BATCH = 1000;

function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SYNC_BATCH) out.push(items.slice(i, i + SYNC_BATCH));
  return out;
}

async function syncOnce(services: ContactServices, importer: { workspaceId: string; creator: Sender | null }, inputs: ContactInput[]): Promise<SyncContactsResponse> {
  const now = services.clock.now();
  const { workspaceId, creator } = importer;
  return services.db.transaction(async (tx) => {
    // Locked, so a concurrent delete or replace of a matched contact waits for this sync.
    const known = await tx
      .select(contactColumns)
      .from(contacts)
      .where(
        and(
          eq(contacts.workspaceId, workspaceId),
          inArray(
            sql`lower(${contacts.email})`,
            inputs.map((i) => i.email),
          ),
        ),
      )
      .orderBy(contacts.id)
      .for('update');
    const byEmail = new Map(known.map((row) => [row.email.toLowerCase(), row]));

    const result: ContactWithCreator[] = [];
    const toInsert: ContactRow[] = [];
    const toUpdate: ContactRow[] = [];
    let unchanged = 0;
    for (const input of inputs) {
      const existing = byEmail.get(input.email);
      if (!existing) {
        const row: ContactRow = { id: newId('ct'), workspaceId, ...input, ...creatorColumns(creator), createdAt: now, updatedAt: now };
        toInsert.push(row);
        result.push({ ...row, creator });
      } else if (sameFields(existing, input)) {
        unchanged++;
        result.push(existing);
      } else {
        const row = { ...existing, ...input, updatedAt: now };
        toUpdate.push(row);
        result.push(row);
      }
    }

    // In email order, as the rows are locked in id order, so that two syncs sharing addresses wait for each other rather than deadlock.
    const inserts = [...toInsert].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    for (const batch of batches(inserts)) await tx.insert(contacts).values(batch);
    for (const batch of batches(toUpdate)) {
      const values = sql.join(
        batch.map(
          (r) =>
            sql`(${r.id}::text, ${sql.join(
              syncedFields.map((f) => sql`${r[f]}::text`),
              sql`, `,
            )})`,
        ),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE contacts SET
          email = v.email, first_name = v.first_name, last_name = v.last_name,
          company = v.company, phone = v.phone, type = v.type, language = v.language, updated_at = ${now}
        FROM (VALUES ${values}) AS v(id, email, first_name, last_name, company, phone, type, language)
        WHERE contacts.id = v.id AND contacts.workspace_id = ${workspaceId}`);
    }
    return { created: toInsert.length, updated: toUpdate.length, unchanged, contacts: result.map(toContact) };
  });
}
