import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Sender } from '../../contract/transfers.js';
import type { Caller } from '../core/caller.js';
import { apiKeys, users } from '../db/schema/index.js';

/**
 * Who made a resource of the workspace (docs/teams.md): a transfer, an upload request, a contact.
 * Each such table records it in two columns, `created_by` (the member) and `created_by_key` (the
 * API key, which acts as the owner), both null for what was made before teams; the API shows them
 * as one value (contract: SenderSchema). Here, not in one owner, because owners are equals.
 */

/** A table with the two columns. */
type TableWithCreator = PgTable & { createdBy: PgColumn; createdByKey: PgColumn };

/** A person of the workspace (a caller's member, a dashboard session's user) as a creator. */
export function memberCreator(person: { userId: string; name: string | null; email: string }): Sender {
  return { kind: 'member', id: person.userId, name: person.name, email: person.email };
}

/** The member or API key acting, as the API shows them; null for a credential that is neither (none today). */
export function creatorOfCaller(caller: Pick<Caller, 'member' | 'via' | 'credentialId' | 'credentialName'>): Sender | null {
  if (caller.member) return memberCreator(caller.member);
  if (caller.via === 'key') return { kind: 'key', id: caller.credentialId, name: caller.credentialName, email: null };
  return null;
}

/** The two columns of a row that `creator` makes. */
export function creatorColumns(creator: Sender | null): { createdBy: string | null; createdByKey: string | null } {
  return { createdBy: creator?.kind === 'member' ? creator.id : null, createdByKey: creator?.kind === 'key' ? creator.id : null };
}

/**
 * A row's creator read in the statement that reads the row: the member's name and address, or the
 * key's name, as they are now; null for neither (or a member whose account is gone). Written out
 * with the table's name: in a select from one table drizzle leaves the columns bare, and inside
 * the subqueries a bare column would be the user's or the key's.
 */
export function creatorOf(table: TableWithCreator): SQL<Sender | null> {
  const row = sql.identifier(getTableName(table));
  const by = sql`${row}.${sql.identifier(table.createdBy.name)}`;
  const byKey = sql`${row}.${sql.identifier(table.createdByKey.name)}`;
  return sql<Sender | null>`case
  when ${by} is not null then (select json_build_object('kind', 'member', 'id', u.id, 'name', u.name, 'email', u.email) from ${users} u where u.id = ${by})
  when ${byKey} is not null then (select json_build_object('kind', 'key', 'id', k.id, 'name', k.name, 'email', null) from ${apiKeys} k where k.id = ${byKey})
end`;
}

/**
 * The creator when the caller is it (nearly always, after a change: a member changes only their own
 * transfers), so no query is needed; null for a row of no one; undefined when the caller is someone else.
 */
export function creatorKnownTo(
  caller: Pick<Caller, 'member' | 'via' | 'credentialId' | 'credentialName'>,
  row: { createdBy: string | null; createdByKey: string | null },
): Sender | null | undefined {
  if (row.createdBy === null && row.createdByKey === null) return null;
  const acting = creatorOfCaller(caller);
  if (acting === null) return undefined;
  const made = acting.kind === 'member' ? row.createdBy === acting.id : row.createdBy === null && row.createdByKey === acting.id;
  return made ? acting : undefined;
}
