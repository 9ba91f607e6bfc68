import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ActivityActor, ActivityEntry, ActivityFilterSchema, ActivityKind, ActivityPageSchema, ActivityQuerySchema } from '../../contract/activity.js';
import type { Caller } from '../core/caller.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { activity } from '../db/schema/index.js';
import type { MemberRole } from '../../contract/scope-names.js';
import type { Services } from '../services.js';
import { requireRole } from '../workspaces/members.js';

/**
 * The activity log (contract/activity.ts): operations record what they did, in the transaction that
 * did it, so an entry exists exactly when its change does; owners and admins read it a page at a
 * time or as CSV. Nothing secret is ever passed in: callers give names, ids and particulars only.
 */

type Detail = Record<string, string | number | boolean | null>;
export interface ActivityRecord {
  kind: ActivityKind;
  actor: ActivityActor;
  subject?: { type: string; id: string | null; name: string | null } | null;
  detail?: Detail;
}

/** A person acting in a workspace (a session, a dashboard token, an app). */
export function memberActor(person: { userId: string; name: string | null; email: string }): ActivityActor {
  return { type: 'member', id: person.userId, name: person.name ?? person.email, email: person.email };
}

/** Whoever a v1 credential acts for: its member, or the API key itself. */
export function callerActor(caller: Pick<Caller, 'member' | 'credentialId' | 'credentialName'>): ActivityActor {
  if (caller.member) return memberActor(caller.member);
  return { type: 'api_key', id: caller.credentialId, name: caller.credentialName ?? 'API key', email: null };
}

/** The server's operator: from the Admin page (a person) or the command line (no one in particular). */
export function operatorActor(person: { userId: string; name: string | null; email: string } | null): ActivityActor {
  return person ? { type: 'operator', id: person.userId, name: person.name ?? person.email, email: person.email } : { type: 'operator', id: null, name: 'Server operator', email: null };
}

/** A transfer as the log names it: its title (an end-to-end encrypted one's title is sealed: none). */
export function transferSubject(t: { id: string; title: string | null }) {
  return { type: 'transfer', id: t.id, name: t.title || null };
}

export async function recordActivity(tx: Pick<Database, 'insert'>, workspaceId: string, at: Date, entry: ActivityRecord): Promise<void> {
  await tx.insert(activity).values({
    id: newId('act'),
    workspaceId,
    at,
    kind: entry.kind,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    actorEmail: entry.actor.email,
    subjectType: entry.subject?.type ?? null,
    subjectId: entry.subject?.id ?? null,
    subjectName: entry.subject?.name ?? null,
    detail: entry.detail ?? {},
  });
}

type Row = typeof activity.$inferSelect;
type Filter = z.output<typeof ActivityFilterSchema>;
interface Reader {
  workspaceId: string;
  role: MemberRole;
}

function toEntry(row: Row): ActivityEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName, email: row.actorEmail },
    subject: row.subjectType ? { type: row.subjectType, id: row.subjectId, name: row.subjectName } : null,
    detail: row.detail,
  };
}

function conditions(workspaceId: string, filter: Filter, after: (string | number)[] | null): SQL[] {
  const where: SQL[] = [eq(activity.workspaceId, workspaceId)];
  if (filter.actor) where.push(eq(activity.actorId, filter.actor));
  if (filter.kind) where.push(eq(activity.kind, filter.kind));
  if (after) where.push(lt(activity.seq, Number(after[0])));
  return where;
}

async function pageOf(db: Pick<Database, 'select'>, workspaceId: string, filter: Filter, after: (string | number)[] | null, limit: number) {
  return db
    .select()
    .from(activity)
    .where(and(...conditions(workspaceId, filter, after)))
    .orderBy(desc(activity.seq))
    .limit(limit);
}

/** Newest first, a page at a time (owners and admins). */
export async function listActivity(
  services: Pick<Services, 'db' | 'cursorKey' | 'config'>,
  reader: Reader,
  query: z.output<typeof ActivityQuerySchema>,
): Promise<z.output<typeof ActivityPageSchema>> {
  requireRole(reader, 'admin');
  const { db, cursorKey, config } = services;
  const after = decodeCursor(cursorKey, 'activity', reader.workspaceId, query.cursor);
  const rows = await pageOf(db, reader.workspaceId, query, after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor(cursorKey, 'activity', reader.workspaceId, [last.seq]) : null;
  return { entries: page.map(toEntry), nextCursor, retentionDays: config.ACTIVITY_RETENTION_DAYS };
}

const CSV_HEADER = ['time', 'kind', 'actor_type', 'actor_id', 'actor', 'actor_email', 'subject_type', 'subject_id', 'subject', 'detail'];

/**
 * A spreadsheet cell: quoted when it holds a separator, quote or line break; a leading `=`, `+`, `-`,
 * `@`, tab or carriage return gets a `'` first, so a member's name can never run as a formula.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(row: Row): string {
  const e = toEntry(row);
  const detail = Object.keys(e.detail).length > 0 ? JSON.stringify(e.detail) : null;
  return [e.at, e.kind, e.actor.type, e.actor.id, e.actor.name, e.actor.email, e.subject?.type ?? null, e.subject?.id ?? null, e.subject?.name ?? null, detail].map(csvCell).join(',') + '\r\n';
}

/** The whole log (or its filtered part) as CSV lines, read 500 rows at a time: never held whole. The role is checked before the first line. */
export function activityCsv(services: Pick<Services, 'db'>, reader: Reader, filter: Filter): AsyncGenerator<string> {
  requireRole(reader, 'admin');
  return csvLines(services.db, reader.workspaceId, filter);
}

async function* csvLines(db: Pick<Database, 'select'>, workspaceId: string, filter: Filter): AsyncGenerator<string> {
  yield CSV_HEADER.join(',') + '\r\n';
  let after: (string | number)[] | null = null;
  for (;;) {
    const rows = await pageOf(db, workspaceId, filter, after, 500);
    for (const row of rows) yield csvLine(row);
    if (rows.length < 500) return;
    const last = rows[rows.length - 1]!;
    after = [last.seq];
  }
}

/** Entries older than ACTIVITY_RETENTION_DAYS go (the maintenance sweep). */
export async function sweepOldActivity(services: Pick<Services, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(services.clock.now().getTime() - services.config.ACTIVITY_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const deleted = await services.db.delete(activity).where(lt(activity.at, before)).returning({ id: activity.id });
  return deleted.length;
}
