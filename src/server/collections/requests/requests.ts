import { callerActor, recordActivity } from '../../activity/activity.js';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  maxFilesInForce,
  type CreateUploadRequestRequestSchema,
  type UpdateUploadRequestRequestSchema,
  type UploadRequest,
  type UploadRequestStatus,
} from '../../../contract/requests.js';
import type { Caller } from '../../core/caller.js';
import { ApiError, invalidField, notFound } from '../../core/errors.js';
import { newId, randomBase62 } from '../../core/secrets.js';
import type { Database } from '../../db/connection.js';
import { collections, uploadRequests } from '../../db/schema/index.js';
import type { Services } from '../../services.js';
import { creatorColumns, creatorOf, creatorOfCaller } from '../../workspaces/creators.js';
import type { Plan } from '../../workspaces/plan.js';
import { folderOfCollection } from '../folders.js';
import { said } from '../../core/sentences.js';

/**
 * A workspace's upload requests: the operations the API and the dashboard call, as plain functions
 * of the services, the caller and the parsed input. Every lookup is by id and workspace together,
 * so another workspace's id is simply not found.
 */

export type UploadRequestRow = typeof uploadRequests.$inferSelect;
type CreateInput = z.output<typeof CreateUploadRequestRequestSchema>;
type UpdateInput = z.output<typeof UpdateUploadRequestRequestSchema>;

export const requestUrl = (publicUrl: string, slug: string) => `${publicUrl}/r/${slug}`;

/** Whether the page takes new files now, and if not, whether that may change (`paused`) or not (`closed`, and why). */
export type RequestAcceptance =
  { state: 'open'; closedReason: null } | { state: 'paused'; closedReason: null } | { state: 'closed'; closedReason: 'closed' | 'deadline' };

/**
 * The one rule for "does this request take new files": closed (or without a collection) is final,
 * a passed deadline too; paused, or a workspace whose paid plan lapsed, is "not now".
 */
export function acceptanceOf(r: Pick<UploadRequestRow, 'status' | 'deadline' | 'collectionId'>, plan: Plan, now: Date): RequestAcceptance {
  if (r.status === 'closed' || r.collectionId === null) return { state: 'closed', closedReason: 'closed' };
  if (r.deadline !== null && r.deadline.getTime() <= now.getTime()) return { state: 'closed', closedReason: 'deadline' };
  if (r.status === 'paused' || plan !== 'paid') return { state: 'paused', closedReason: null };
  return { state: 'open', closedReason: null };
}

const byId = (caller: Caller, id: string) => and(eq(uploadRequests.workspaceId, caller.workspaceId), eq(uploadRequests.id, id))!;

/**
 * Requests with who made them, their submissions counted and the files those brought that are still in the
 * collection. Written as SQL: drizzle leaves columns unqualified inside a subquery's joins.
 */
function requestsWithStats(db: Pick<Database, 'select'>, where: SQL) {
  const ofRequest = sql.raw('s.request_id = "upload_requests"."id"');
  return db
    .select({
      r: uploadRequests,
      creator: creatorOf(uploadRequests),
      submissionCount: sql<number>`(select count(*) from request_submissions s where ${ofRequest})`.mapWith(Number),
      lastSubmissionAt: sql<string | null>`(select max(s.created_at) from request_submissions s where ${ofRequest})`,
      // The files still in the collection: not those in its trash.
      fileCount: sql<number>`(select count(*) from collection_files cf join request_submissions s on s.id = cf.submission_id where cf.trashed_at is null and ${ofRequest})`.mapWith(
        Number,
      ),
      sizeBytes:
        sql<number>`(select coalesce(sum(f.size_bytes), 0) from collection_files cf join files f on f.id = cf.file_id join request_submissions s on s.id = cf.submission_id where cf.trashed_at is null and ${ofRequest})`.mapWith(
          Number,
        ),
    })
    .from(uploadRequests)
    .where(where);
}

type RequestWithStats = Awaited<ReturnType<typeof requestsWithStats>>[number];

function toUploadRequest(row: RequestWithStats, services: Pick<Services, 'config' | 'clock'>, plan: Plan): UploadRequest {
  const { r } = row;
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    collectionId: r.collectionId,
    folderId: r.folderId,
    url: requestUrl(services.config.PUBLIC_URL, r.slug),
    status: r.status,
    acceptingFiles: acceptanceOf(r, plan, services.clock.now()).state === 'open',
    deadline: r.deadline?.toISOString() ?? null,
    maxFiles: maxFilesInForce(r.maxFiles),
    maxBytes: r.maxBytes,
    allowedTypes: r.allowedTypes,
    requireEmail: r.requireEmail,
    submissionCount: row.submissionCount,
    fileCount: row.fileCount,
    sizeBytes: row.sizeBytes,
    lastSubmissionAt: row.lastSubmissionAt === null ? null : new Date(row.lastSubmissionAt).toISOString(),
    createdBy: row.creator,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listUploadRequests(services: Pick<Services, 'db' | 'config' | 'clock'>, caller: Caller): Promise<UploadRequest[]> {
  const rows = await requestsWithStats(services.db, eq(uploadRequests.workspaceId, caller.workspaceId)).orderBy(
    desc(uploadRequests.createdAt),
    desc(uploadRequests.id),
  );
  return rows.map((row) => toUploadRequest(row, services, caller.plan));
}

export async function getUploadRequest(services: Pick<Services, 'db' | 'config' | 'clock'>, caller: Caller, id: string): Promise<UploadRequest> {
  const [row] = await requestsWithStats(services.db, byId(caller, id));
  if (!row) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
  return toUploadRequest(row, services, caller.plan);
}

/** The caller's request, or 404. */
export async function ownUploadRequest(db: Pick<Database, 'select'>, caller: Caller, id: string): Promise<UploadRequestRow> {
  const [row] = await db.select().from(uploadRequests).where(byId(caller, id));
  if (!row) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
  return row;
}

/** The collection (the caller's) and folder (of that collection) submissions go to, or 400 naming the field. */
async function assertDestination(tx: Pick<Database, 'select'>, caller: Caller, collectionId: string, folderId: string | null) {
  const [c] = await tx
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.workspaceId, caller.workspaceId), eq(collections.id, collectionId)));
  if (!c) throw invalidField('body', 'collectionId', said({ id: 'api.requests.noSuchCollection', defaultMessage: 'no such collection' }));
  if (folderId !== null && !(await folderOfCollection(tx, collectionId, folderId))) throw invalidField('body', 'folderId', said({ id: 'api.requests.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
}

function assertFutureDeadline(deadline: string | null | undefined, now: Date): Date | null | undefined {
  if (deadline === undefined || deadline === null) return deadline;
  const at = new Date(deadline);
  if (at.getTime() <= now.getTime()) throw invalidField('body', 'deadline', said({ id: 'api.requests.deadlineMustFuture', defaultMessage: 'deadline must be in the future' }));
  return at;
}

export async function createUploadRequest(services: Pick<Services, 'db' | 'clock' | 'config'>, caller: Caller, input: CreateInput): Promise<UploadRequest> {
  const now = services.clock.now();
  const deadline = assertFutureDeadline(input.deadline, now) ?? null;
  const id = newId('req');
  await services.db.transaction(async (tx) => {
    await assertDestination(tx, caller, input.collectionId, input.folderId ?? null);
    await tx.insert(uploadRequests).values({
      id,
      workspaceId: caller.workspaceId,
      collectionId: input.collectionId,
      folderId: input.folderId ?? null,
      slug: randomBase62(22),
      title: input.title,
      message: input.message || null,
      status: input.status,
      deadline,
      maxFiles: input.maxFiles ?? null,
      maxBytes: input.maxBytes ?? null,
      allowedTypes: input.allowedTypes,
      requireEmail: input.requireEmail,
      ...creatorColumns(creatorOfCaller(caller)),
      createdAt: now,
      updatedAt: now,
    });
    if (input.status === 'open') await recordRequestStatus(tx, caller, { id, title: input.title }, 'open', now);
  });
  return getUploadRequest(services, caller, id);
}

/** Opening and closing a request are in the activity log (pausing is not: it is a moment's hold). */
async function recordRequestStatus(tx: Pick<Database, 'insert'>, caller: Caller, r: { id: string; title: string }, status: UploadRequestStatus, now: Date) {
  if (status === 'paused') return;
  await recordActivity(tx, caller.workspaceId, now, { kind: status === 'open' ? 'upload_request.opened' : 'upload_request.closed', actor: callerActor(caller), subject: { type: 'upload_request', id: r.id, name: r.title } });
}

/** `open` ↔ `paused`, either → `closed`; the same status again is no change. */
function assertTransition(from: UploadRequestStatus, to: UploadRequestStatus) {
  if (from === to) return;
  if (to === 'closed' || (from === 'open' && to === 'paused') || (from === 'paused' && to === 'open')) return;
  throw new ApiError('conflict', said({ id: 'api.requests.invalidTransition', defaultMessage: 'An upload request cannot go from {from, select, open {open} paused {paused} closed {closed} other {{from}}} to {to, select, open {open} paused {paused} closed {closed} other {{to}}}.', description: 'from, to: the request’s status (open, paused, closed)' }, { from, to }), { reason: 'invalid_transition', from, to });
}

/** Changes what is given, under the request's row lock. A closed request takes no change at all. */
export async function updateUploadRequest(
  services: Pick<Services, 'db' | 'clock' | 'config'>,
  caller: Caller,
  id: string,
  input: UpdateInput,
): Promise<UploadRequest> {
  const now = services.clock.now();
  await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(uploadRequests).where(byId(caller, id)).for('update');
    if (!current) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
    if (current.status === 'closed') throw new ApiError('conflict', said({ id: 'api.requests.uploadRequestClosedWhich', defaultMessage: 'This upload request is closed, which is final; create a new one.' }), { reason: 'closed' });
    if (input.status !== undefined) assertTransition(current.status, input.status);
    const deadline = assertFutureDeadline(input.deadline, now);
    const collectionId = input.collectionId ?? current.collectionId;
    const movedCollection = input.collectionId !== undefined && input.collectionId !== current.collectionId;
    const folderId = input.folderId !== undefined ? input.folderId : movedCollection ? null : current.folderId;
    if (collectionId === null) throw invalidField('body', 'collectionId', said({ id: 'api.requests.collectionRequestDeleted', defaultMessage: 'the collection of this request was deleted' }));
    if (input.collectionId !== undefined || input.folderId !== undefined) await assertDestination(tx, caller, collectionId, folderId);
    await tx
      .update(uploadRequests)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.message !== undefined ? { message: input.message || null } : {}),
        collectionId,
        folderId,
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(deadline !== undefined ? { deadline } : {}),
        ...(input.maxFiles !== undefined ? { maxFiles: input.maxFiles } : {}),
        ...(input.maxBytes !== undefined ? { maxBytes: input.maxBytes } : {}),
        ...(input.allowedTypes !== undefined ? { allowedTypes: input.allowedTypes } : {}),
        ...(input.requireEmail !== undefined ? { requireEmail: input.requireEmail } : {}),
        updatedAt: now,
      })
      .where(eq(uploadRequests.id, id));
    if (input.status !== undefined && input.status !== current.status) await recordRequestStatus(tx, caller, { id, title: input.title ?? current.title }, input.status, now);
  });
  return getUploadRequest(services, caller, id);
}

/** A collection is being deleted: its requests close for good (in the caller's transaction, before the row goes). */
export async function closeRequestsOfCollection(tx: Pick<Database, 'update'>, workspaceId: string, collectionId: string, now: Date) {
  await tx
    .update(uploadRequests)
    .set({ status: 'closed', updatedAt: now })
    .where(and(eq(uploadRequests.workspaceId, workspaceId), eq(uploadRequests.collectionId, collectionId)));
}
