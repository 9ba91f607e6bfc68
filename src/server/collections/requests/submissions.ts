import { and, asc, desc, eq, inArray, isNotNull, ne, notExists, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { typeAllowed, type PublicUploadRequest, type StartSubmissionRequestSchema, type SubmissionProgress } from '../../../contract/public-requests.js';
import { maxFilesInForce, type Submission } from '../../../contract/requests.js';
import type { Caller } from '../../core/caller.js';
import { ApiError, invalidField, notFound } from '../../core/errors.js';
import { newId, randomBase62, sha256 } from '../../core/secrets.js';
import type { Database } from '../../db/connection.js';
import { collectionFiles, collectionFolders, collections, files, requestSubmissions, uploadRequests, workspaces } from '../../db/schema/index.js';
import { emitEvent } from '../../events/emit.js';
import { deleteStoredBytes, deleteUnresumableUploads } from '../../files/stored.js';
import type { Services } from '../../services.js';
import { linkUnavailable } from '../../sharing/availability.js';
import { tusEndpoint } from '../../uploads/register.js';
import { registerUploads, type UploadTarget } from '../../uploads/register.js';
import { touchCollection } from '../collections.js';
import { announceSubmissionFiles } from '../files.js';
import { ABANDONED_UPLOAD_MS } from '../../files/stored.js';
import { createFolderWithFreeName, ensureFolderPaths, subtreeCondition } from '../folders.js';
import { effectivePlan, type Plan } from '../../workspaces/plan.js';
import { acceptanceOf, ownUploadRequest, type UploadRequestRow } from './requests.js';
import { notifySubmission } from './submission-mail.js';
import { isActiveWorkspace } from '../../workspaces/active.js';
import { said } from '../../core/sentences.js';

/**
 * An upload request as its uploaders use it, through the page at `/r/<slug>` (see
 * src/contract/public-requests.ts): open it by slug, start a submission with their details and a
 * first batch of files, add or cancel files, and say they are done. Each submission gets its own
 * folder in the collection; its files are collection files (the one file engine, tus, tokens,
 * CRC-32) marked `file_request` with the uploader. When the uploader is done and every file they
 * kept has arrived, the submission completes once: `request.submitted`, then a mail to the workspace.
 */

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;
const HOUR = 3_600_000;
/** `request.submitted` lists at most this many files, as the spec says. */
export const SUBMITTED_EVENT_FILES = 500;

export interface OpenedRequest {
  r: UploadRequestRow;
  workspaceName: string;
  plan: Plan;
}

/** The request behind a slug: 404 for an unknown one, 410 `link_unavailable` (`suspended`) while the operator has disabled its workspace. */
export async function openUploadRequest(services: Pick<Services, 'db' | 'clock' | 'config'>, slug: string): Promise<OpenedRequest> {
  if (!SLUG.test(slug)) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
  const [row] = await services.db
    .select({ r: uploadRequests, workspaceName: workspaces.name, plan: workspaces.plan, planUntil: workspaces.planUntil, disabledAt: workspaces.disabledAt })
    .from(uploadRequests)
    .innerJoin(workspaces, eq(workspaces.id, uploadRequests.workspaceId))
    .where(eq(uploadRequests.slug, slug));
  if (!row) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
  if (!isActiveWorkspace(row)) throw linkUnavailable('suspended');
  return { r: row.r, workspaceName: row.workspaceName, plan: effectivePlan(row, services.clock.now(), services.config) };
}

export function describeUploadRequest(services: Pick<Services, 'clock'>, { r, workspaceName, plan }: OpenedRequest): PublicUploadRequest {
  const acceptance = acceptanceOf(r, plan, services.clock.now());
  return {
    title: r.title,
    message: r.message,
    workspaceName,
    state: acceptance.state,
    closedReason: acceptance.closedReason,
    deadline: r.deadline?.toISOString() ?? null,
    maxFiles: maxFilesInForce(r.maxFiles),
    maxBytes: r.maxBytes,
    allowedTypes: r.allowedTypes,
    requireEmail: r.requireEmail,
  };
}

type StartInput = z.output<typeof StartSubmissionRequestSchema>;
type FileInput = StartInput['files'][number];

/** Refuses new files unless the request takes them now: `409 conflict` saying why. The request's row is read under a share lock, so a pause commits before or after, never during. */
async function lockAcceptingRequest(tx: Pick<Database, 'select'>, opened: OpenedRequest, now: Date): Promise<UploadRequestRow> {
  const [r] = await tx.select().from(uploadRequests).where(eq(uploadRequests.id, opened.r.id)).for('share');
  if (!r) throw notFound(said({ id: 'api.requests.uploadRequestNotFound', defaultMessage: 'Upload request not found' }));
  const acceptance = acceptanceOf(r, opened.plan, now);
  if (acceptance.state === 'paused') throw new ApiError('conflict', said({ id: 'api.requests.uploadRequestPausedTakes', defaultMessage: 'This upload request is paused and takes no new files for now.' }), { reason: 'paused' });
  if (acceptance.state === 'closed') {
    const reason = acceptance.closedReason;
    throw new ApiError('conflict', reason === 'deadline' ? said({ id: 'api.requests.deadlinePassed', defaultMessage: 'The deadline of this upload request has passed.' }) : said({ id: 'api.requests.uploadRequestClosed', defaultMessage: 'This upload request is closed.' }), { reason });
  }
  return r;
}

/** The request's rules on a batch, given what the submission holds already: before any byte is accepted. */
function assertWithinRules(r: UploadRequestRow, batch: FileInput[], held: { count: number; bytes: number }) {
  batch.forEach((f, i) => {
    const type = f.mimeType ?? 'application/octet-stream';
    if (!typeAllowed(r.allowedTypes, type)) {
      throw invalidField('body', `files.${i}.mimeType`, said({ id: 'api.requests.typeNotAllowed', defaultMessage: 'this request takes only files of type {types}; “{name}” is {type}', description: 'types: media types, comma-separated; name: a file name; type: its media type' }, { types: r.allowedTypes.join(', '), name: f.name, type }));
    }
  });
  const maxFiles = maxFilesInForce(r.maxFiles);
  if (held.count + batch.length > maxFiles) {
    const max = String(maxFiles);
    const held_ = String(held.count);
    throw invalidField(
      'body',
      'files',
      held.count > 0
        ? said({ id: 'api.requests.tooManyFilesHeld', defaultMessage: 'this request takes at most {maxFiles, plural, one {{max} file} other {{max} files}} per submission (this one holds {held} already)', description: 'maxFiles and max: the same number' }, { maxFiles, max, held: held_ })
        : said({ id: 'api.requests.tooManyFiles', defaultMessage: 'this request takes at most {maxFiles, plural, one {{max} file} other {{max} files}} per submission', description: 'maxFiles and max: the same number' }, { maxFiles, max }),
    );
  }
  const bytes = batch.reduce((s, f) => s + f.size, 0);
  if (r.maxBytes !== null && held.bytes + bytes > r.maxBytes) {
    throw invalidField('body', 'files', said({ id: 'api.requests.tooManyBytes', defaultMessage: 'this request takes at most {maxBytes} bytes per submission' }, { maxBytes: String(r.maxBytes) }));
  }
}

/** The collection's row, locked for the folders and files to be added (the same lock the owner's changes take). */
async function lockCollection(tx: Pick<Database, 'select'>, collectionId: string) {
  const [c] = await tx.select().from(collections).where(eq(collections.id, collectionId)).for('update');
  if (!c) throw new ApiError('conflict', said({ id: 'api.requests.uploadRequestClosed', defaultMessage: 'This upload request is closed.' }), { reason: 'closed' });
  return c;
}

/** Registers a batch into the submission's folder, each file under its relative path, as the uploader's. */
async function registerSubmissionFiles(
  tx: Pick<Database, 'select' | 'insert' | 'update'>,
  services: Pick<Services, 'config'>,
  c: { id: string; workspaceId: string },
  s: typeof requestSubmissions.$inferSelect,
  batch: FileInput[],
  now: Date,
): Promise<UploadTarget[]> {
  const folderIds = await ensureFolderPaths(
    tx,
    c.id,
    s.folderId,
    batch.map((f) => f.path ?? null),
    now,
    (i) => `files.${i}.path`,
  );
  const targets = await registerUploads(tx, services, { kind: 'collection', id: c.id, workspaceId: c.workspaceId }, batch, now);
  await tx.insert(collectionFiles).values(
    targets.map((t, i) => ({
      fileId: t.id,
      collectionId: c.id,
      folderId: folderIds[i] ?? null,
      source: 'file_request' as const,
      uploaderName: s.uploaderName,
      uploaderEmail: s.uploaderEmail,
      submissionId: s.id,
    })),
  );
  await touchCollection(tx, c.id, now);
  return targets;
}

/** Folder names from typed text: no slashes or control characters, trimmed. */
function folderBaseName(uploaderName: string, now: Date) {
  const cleaned = uploaderName
    .replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, '')
    .replace(/[/\\]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return `${cleaned || 'Upload'} ${now.toISOString().slice(0, 10)}`;
}

async function chargeSubmissionStart(services: Pick<Services, 'rateLimits' | 'clock' | 'config'>, address: string) {
  const nowMs = services.clock.now().getTime();
  const limit = services.config.RATE_LIMIT_SUBMISSIONS_PER_HOUR;
  const { count, resetAtMs } = await services.rateLimits.hit(`request-submissions:${address}`, HOUR, nowMs);
  if (count <= limit) return;
  const retryAfter = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  throw new ApiError(
    'rate_limited',
    said({ id: 'api.requests.tooManySubmissionsFrom', defaultMessage: 'Too many submissions from this address; try again later.' }),
    { bucket: 'request-submissions', limit, retryAfterSeconds: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

/**
 * Starts a submission: the uploader's details and their first files, each checked against the
 * request's rules before anything is written. The submission gets its own folder under the
 * request's, named from the uploader and the date (unique among its siblings).
 */
export async function startSubmission(services: Services, opened: OpenedRequest, input: StartInput, address: string) {
  const now = services.clock.now();
  if (opened.r.requireEmail && !input.email) throw invalidField('body', 'email', said({ id: 'api.requests.emailRequiredRequest', defaultMessage: 'email is required for this request' }));
  // The request's rules, checked on the request as just opened, before any lock or write.
  assertWithinRules(opened.r, input.files, { count: 0, bytes: 0 });
  const token = `st_${randomBase62(43)}`;
  return services.db.transaction(async (tx) => {
    const r = await lockAcceptingRequest(tx, opened, now);
    // Again on the row as locked: a change of the rules commits before or after, never in between.
    assertWithinRules(r, input.files, { count: 0, bytes: 0 });
    // Charged only for a start the request would take: a refusal (400, 409) costs the address nothing.
    await chargeSubmissionStart(services, address);
    const c = await lockCollection(tx, r.collectionId!);
    const folder = await createFolderWithFreeName(tx, c.id, r.folderId, folderBaseName(input.name, now), now);
    const [s] = await tx
      .insert(requestSubmissions)
      .values({
        id: newId('sub'),
        requestId: r.id,
        collectionId: c.id,
        folderId: folder.id,
        uploaderName: input.name,
        uploaderEmail: input.email,
        message: input.message,
        tokenHash: sha256(token),
        createdAt: now,
      })
      .returning();
    const targets = await registerSubmissionFiles(tx, services, c, s!, input.files, now);
    return {
      submission: {
        id: s!.id,
        token,
        status: 'uploading' as const,
        fileCount: targets.length,
        sizeBytes: input.files.reduce((sum, f) => sum + f.size, 0),
        folderName: folder.name,
      },
      tusEndpoint: tusEndpoint(services.config.PUBLIC_URL),
      files: targets,
    };
  });
}

/** The submission the token opens, of this request; 401 for a missing or wrong token, 404 for an unknown submission. */
async function submissionOf(db: Pick<Database, 'select'>, opened: OpenedRequest, submissionId: string, token: string | undefined, lock = false) {
  if (!token) throw new ApiError('unauthorized', said({ id: 'api.requests.sendSubmissionSToken', defaultMessage: 'Send the submission’s token in the x-submission-token header.' }));
  let q = db
    .select()
    .from(requestSubmissions)
    .where(and(eq(requestSubmissions.id, submissionId), eq(requestSubmissions.requestId, opened.r.id)))
    .$dynamic();
  if (lock) q = q.for('update');
  const [s] = await q;
  if (!s) throw notFound(said({ id: 'api.requests.submissionNotFound', defaultMessage: 'Submission not found' }));
  // The token is compared by its hash, so the comparison's timing says nothing about the token.
  if (s.tokenHash !== sha256(token)) throw new ApiError('unauthorized', said({ id: 'api.requests.submissionSToken', defaultMessage: 'That is not this submission’s token.' }));
  return s;
}

/** What a submission holds now: its files (registered and not cancelled) and their bytes. */
async function heldBy(db: Pick<Database, 'select'>, submissionId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), bytes: sql<number>`coalesce(sum(${files.sizeBytes}), 0)`.mapWith(Number) })
    .from(collectionFiles)
    .innerJoin(files, eq(files.id, collectionFiles.fileId))
    .where(eq(collectionFiles.submissionId, submissionId));
  return row ?? { count: 0, bytes: 0 };
}

export async function addSubmissionFiles(services: Services, opened: OpenedRequest, submissionId: string, token: string | undefined, batch: FileInput[]) {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const s = await submissionOf(tx, opened, submissionId, token, true);
    if (s.finishedAt !== null) throw new ApiError('conflict', said({ id: 'api.requests.submissionSentAlreadyStart', defaultMessage: 'This submission was sent already; start a new one to send more files.' }), { reason: 'finished' });
    const r = await lockAcceptingRequest(tx, opened, now);
    assertWithinRules(r, batch, await heldBy(tx, s.id));
    if (s.collectionId === null) throw new ApiError('conflict', said({ id: 'api.requests.uploadRequestClosed', defaultMessage: 'This upload request is closed.' }), { reason: 'closed' });
    const c = await lockCollection(tx, s.collectionId);
    const targets = await registerSubmissionFiles(tx, services, c, s, batch, now);
    return { tusEndpoint: tusEndpoint(services.config.PUBLIC_URL), files: targets };
  });
}

/**
 * Cancels a file that has not finished: its row and bytes go, and so does the submission's folder
 * if nothing is left in it (with the submission itself, when it has no file left and was not sent).
 */
export async function cancelSubmissionFile(services: Services, opened: OpenedRequest, submissionId: string, token: string | undefined, fileId: string) {
  const removed = await services.db.transaction(async (tx) => {
    const s = await submissionOf(tx, opened, submissionId, token, true);
    const [f] = await tx
      .select({ id: files.id, state: files.state })
      .from(files)
      .innerJoin(collectionFiles, eq(collectionFiles.fileId, files.id))
      .where(and(eq(files.id, fileId), eq(collectionFiles.submissionId, s.id)));
    if (!f) throw notFound(said({ id: 'api.requests.fileNotFound', defaultMessage: 'File not found' }));
    if (f.state === 'complete') throw new ApiError('conflict', said({ id: 'api.requests.fileArrivedAlreadyWorkspace', defaultMessage: 'This file has arrived already and is the workspace’s now.' }), { reason: 'complete' });
    const rows = await tx.delete(files).where(eq(files.id, f.id)).returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
    if ((await heldBy(tx, s.id)).count === 0 && s.finishedAt === null) await dropEmptySubmission(tx, s);
    return rows;
  });
  await deleteStoredBytes(services, removed);
  await completeSubmissionIfDone(services, submissionId);
  return { deleted: true as const };
}

/** A submission that holds no file: its folders go if they hold nothing else, then the submission. */
async function dropEmptySubmission(tx: Pick<Database, 'select' | 'delete'>, s: { id: string; folderId: string | null }) {
  if (s.folderId !== null) {
    const [folder] = await tx.select().from(collectionFolders).where(eq(collectionFolders.id, s.folderId));
    if (folder) {
      const [inside] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(collectionFiles)
        .innerJoin(collectionFolders, eq(collectionFolders.id, collectionFiles.folderId))
        .where(and(eq(collectionFolders.collectionId, folder.collectionId), subtreeCondition(folder)));
      // Subfolders go with it (the foreign key cascades).
      if (inside?.n === 0) await tx.delete(collectionFolders).where(eq(collectionFolders.id, folder.id));
    }
  }
  await tx.delete(requestSubmissions).where(eq(requestSubmissions.id, s.id));
}

/**
 * The uploader is done adding files ("Send"): from now on the files are the collection's, seen by
 * its visitors (collections/visibility.ts) and announced; the submission completes now if every
 * file has arrived, or when the last one does.
 */
export async function finishSubmission(
  services: Services,
  opened: OpenedRequest,
  submissionId: string,
  token: string | undefined,
): Promise<SubmissionProgress> {
  await services.db.transaction(async (tx) => {
    const s = await submissionOf(tx, opened, submissionId, token, true);
    if ((await heldBy(tx, s.id)).count === 0) throw invalidField('body', 'files', said({ id: 'api.requests.addLeastOneFile', defaultMessage: 'add at least one file before sending' }));
    if (s.finishedAt === null) await tx.update(requestSubmissions).set({ finishedAt: services.clock.now() }).where(eq(requestSubmissions.id, s.id));
  });
  await submissionSent(services, submissionId);
  return submissionProgress(services.db, submissionId);
}

/** After a submission was sent (by its uploader or the owner): announce what arrived before, and complete it if nothing is missing. */
async function submissionSent(services: Services, submissionId: string) {
  await announceSubmissionFiles(services, submissionId);
  await completeSubmissionIfDone(services, submissionId);
}

async function submissionProgress(db: Pick<Database, 'select'>, submissionId: string): Promise<SubmissionProgress> {
  const [row] = await db
    .select({ s: requestSubmissions, folderName: collectionFolders.name })
    .from(requestSubmissions)
    .leftJoin(collectionFolders, eq(collectionFolders.id, requestSubmissions.folderId))
    .where(eq(requestSubmissions.id, submissionId));
  if (!row) throw notFound(said({ id: 'api.requests.submissionNotFound', defaultMessage: 'Submission not found' }));
  const held = await heldBy(db, submissionId);
  return { id: row.s.id, status: row.s.status, fileCount: held.count, sizeBytes: held.bytes, folderName: row.folderName };
}

/**
 * Completes the submission if the uploader is done and every file they kept has arrived: claimed
 * with one conditional UPDATE, so however many last files land at once, `request.submitted` is
 * emitted once (in the same transaction), and the workspace is mailed after it commits.
 */
export async function completeSubmissionIfDone(services: Services, submissionId: string): Promise<boolean> {
  const now = services.clock.now();
  const ofSubmission = eq(collectionFiles.submissionId, requestSubmissions.id);
  const completed = await services.db.transaction(async (tx) => {
    const [s] = await tx
      .update(requestSubmissions)
      .set({ status: 'complete', completedAt: now })
      .where(
        and(
          eq(requestSubmissions.id, submissionId),
          eq(requestSubmissions.status, 'uploading'),
          isNotNull(requestSubmissions.finishedAt),
          sql`exists (select 1 from ${collectionFiles} where ${ofSubmission})`,
          notExists(
            tx
              .select({ one: sql`1` })
              .from(collectionFiles)
              .innerJoin(files, eq(files.id, collectionFiles.fileId))
              .where(and(ofSubmission, ne(files.state, 'complete'))),
          ),
        ),
      )
      .returning();
    if (!s) return false;
    const [r] = await tx.select().from(uploadRequests).where(eq(uploadRequests.id, s.requestId));
    if (!r) return false;
    const sent = await tx
      .select({ id: files.id, name: files.name, size: files.sizeBytes, folderId: collectionFiles.folderId })
      .from(collectionFiles)
      .innerJoin(files, eq(files.id, collectionFiles.fileId))
      .where(eq(collectionFiles.submissionId, s.id))
      .orderBy(asc(files.seq));
    await emitEvent(tx, {
      workspaceId: r.workspaceId,
      type: 'request.submitted',
      subject: s.collectionId ? { kind: 'collection', id: s.collectionId } : null,
      now, billing: services.config,
      data: {
        request: { id: r.id, title: r.title, collectionId: s.collectionId },
        submission: {
          id: s.id,
          uploader: { name: s.uploaderName, email: s.uploaderEmail },
          message: s.message ?? '',
          fileCount: sent.length,
          sizeBytes: sent.reduce((sum, f) => sum + f.size, 0),
        },
        files: sent.slice(0, SUBMITTED_EVENT_FILES),
      },
    });
    return true;
  });
  if (completed) {
    await notifySubmission(services, submissionId).catch((err: unknown) => services.log.error({ err, submissionId }, 'could not mail about a submission'));
  }
  return completed;
}

/** A collection file arrived: if an upload request brought it, its submission may be complete now. */
export async function submissionFileArrived(services: Services, fileId: string) {
  const [cf] = await services.db.select({ submissionId: collectionFiles.submissionId }).from(collectionFiles).where(eq(collectionFiles.fileId, fileId));
  if (cf?.submissionId) await completeSubmissionIfDone(services, cf.submissionId);
}

/** A file registered into a submission never sent, whose bytes have not all arrived this long after, is given up (as a draft's are). */
export const UNSENT_REGISTRATION_MS = 24 * HOUR;
/** A submission never sent, that its owner neither published nor discarded, is discarded this long after it was started. */
export const UNSENT_SUBMISSION_MS = ABANDONED_UPLOAD_MS;

/** Deletes a submission not sent, in the caller's transaction: its files' rows, its folder if nothing else is in it, and itself. The caller deletes the bytes once committed. */
async function discardUnsent(tx: Pick<Database, 'select' | 'delete' | 'update'>, s: typeof requestSubmissions.$inferSelect, now: Date) {
  const ids = (await tx.select({ id: collectionFiles.fileId }).from(collectionFiles).where(eq(collectionFiles.submissionId, s.id))).map((f) => f.id);
  const removed =
    ids.length === 0
      ? []
      : await tx.delete(files).where(inArray(files.id, ids)).returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
  await dropEmptySubmission(tx, s);
  if (s.collectionId !== null) await touchCollection(tx, s.collectionId, now);
  return removed;
}

/**
 * What uploaders left behind. A submission is never published by itself: only its uploader's Send
 * or its owner's publish makes its files the collection's. So:
 * - files registered into a submission not sent, whose bytes never all arrived, are deleted a day
 *   after registration once no upload token of theirs is valid (an uploader still sending renews
 *   it), and a submission not sent left without files goes with its folder;
 * - a submission not sent a week after it was started is discarded, files and bytes;
 * - one sent while a file was still on its way, which was then abandoned and swept (a week),
 *   completes with the files that did arrive (nothing else would ever complete it), or is dropped
 *   when none did.
 */
export async function sweepUnsentSubmissions(services: Services): Promise<number> {
  const now = services.clock.now();
  const unsent = (id: typeof collectionFiles.submissionId) =>
    sql`exists (select 1 from ${requestSubmissions} where ${requestSubmissions.id} = ${id} and ${requestSubmissions.finishedAt} is null)`;
  const neverArrived = await deleteUnresumableUploads(
    services,
    new Date(now.getTime() - UNSENT_REGISTRATION_MS),
    and(eq(files.ownerKind, 'collection'), sql`exists (select 1 from ${collectionFiles} where ${collectionFiles.fileId} = ${files.id} and ${unsent(collectionFiles.submissionId)})`)!,
  );

  const stale = await services.db
    .select({ id: requestSubmissions.id })
    .from(requestSubmissions)
    .where(
      and(
        eq(requestSubmissions.status, 'uploading'),
        sql`(${requestSubmissions.createdAt} < ${new Date(now.getTime() - UNSENT_SUBMISSION_MS)} or (${requestSubmissions.finishedAt} is null and not exists (select 1 from ${collectionFiles} where ${collectionFiles.submissionId} = ${requestSubmissions.id})))`,
      ),
    );
  for (const { id } of stale) {
    const removed = await services.db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(requestSubmissions)
        .where(and(eq(requestSubmissions.id, id), eq(requestSubmissions.status, 'uploading')))
        .for('update');
      if (!locked) return [];
      if (locked.finishedAt === null) return discardUnsent(tx, locked, now);
      if ((await heldBy(tx, id)).count === 0) await dropEmptySubmission(tx, locked);
      return [];
    });
    await deleteStoredBytes(services, removed);
    await completeSubmissionIfDone(services, id);
  }
  return neverArrived + stale.length;
}

// The owner's side: a request's submissions.

export async function listSubmissions(services: Pick<Services, 'db'>, caller: Caller, requestId: string): Promise<Submission[]> {
  const r = await ownUploadRequest(services.db, caller, requestId);
  const rows = await services.db
    .select()
    .from(requestSubmissions)
    .where(eq(requestSubmissions.requestId, r.id))
    .orderBy(desc(requestSubmissions.createdAt), desc(requestSubmissions.id));
  const ids = rows.map((s) => s.id);
  const held =
    ids.length === 0
      ? []
      : await services.db
          .select({
            submissionId: collectionFiles.submissionId,
            id: files.id,
            name: files.name,
            sizeBytes: files.sizeBytes,
            mimeType: files.mimeType,
            folderId: collectionFiles.folderId,
            state: files.state,
          })
          .from(collectionFiles)
          .innerJoin(files, eq(files.id, collectionFiles.fileId))
          .where(inArray(collectionFiles.submissionId, ids))
          .orderBy(asc(files.seq));
  const bySubmission = new Map<string, typeof held>();
  for (const f of held) {
    const list = bySubmission.get(f.submissionId!);
    if (list) list.push(f);
    else bySubmission.set(f.submissionId!, [f]);
  }
  return rows.map((s) => {
    const mine = bySubmission.get(s.id) ?? [];
    return {
      id: s.id,
      uploader: { name: s.uploaderName, email: s.uploaderEmail },
      message: s.message,
      status: s.status,
      collectionId: s.collectionId,
      folderId: s.folderId,
      fileCount: mine.length,
      sizeBytes: mine.reduce((sum, f) => sum + f.sizeBytes, 0),
      files: mine.slice(0, SUBMITTED_EVENT_FILES).map(({ submissionId: _, ...f }) => f),
      sent: s.finishedAt !== null,
      discardAt: s.finishedAt === null ? new Date(s.createdAt.getTime() + UNSENT_SUBMISSION_MS).toISOString() : null,
      createdAt: s.createdAt.toISOString(),
      completedAt: s.completedAt?.toISOString() ?? null,
    };
  });
}

async function ownSubmission(services: Pick<Services, 'db'>, caller: Caller, requestId: string, submissionId: string): Promise<Submission> {
  const found = (await listSubmissions(services, caller, requestId)).find((s) => s.id === submissionId);
  if (!found) throw notFound(said({ id: 'api.requests.submissionNotFound', defaultMessage: 'Submission not found' }));
  return found;
}

/** The caller's submission of the caller's request, locked for a change, or 404. */
async function lockOwnSubmission(tx: Pick<Database, 'select'>, caller: Caller, requestId: string, submissionId: string) {
  const r = await ownUploadRequest(tx, caller, requestId);
  const [s] = await tx
    .select()
    .from(requestSubmissions)
    .where(and(eq(requestSubmissions.id, submissionId), eq(requestSubmissions.requestId, r.id)))
    .for('update');
  if (!s) throw notFound(said({ id: 'api.requests.submissionNotFound', defaultMessage: 'Submission not found' }));
  return s;
}

/**
 * The owner publishes a submission its uploader did not send: it is sent as it is, exactly as if
 * the uploader had pressed Send (visitors see its files, they are announced, it completes once
 * every file kept has arrived), except that nobody is mailed about it: the owner did it. Publishing
 * one already sent changes nothing.
 */
export async function publishSubmission(services: Services, caller: Caller, requestId: string, submissionId: string): Promise<Submission> {
  await services.db.transaction(async (tx) => {
    const s = await lockOwnSubmission(tx, caller, requestId, submissionId);
    if (s.finishedAt !== null) return;
    if ((await heldBy(tx, s.id)).count === 0) throw new ApiError('conflict', said({ id: 'api.requests.submissionHoldsNoFile', defaultMessage: 'This submission holds no file to publish.' }), { reason: 'empty' });
    const now = services.clock.now();
    await tx.update(requestSubmissions).set({ finishedAt: now, ownerNotifiedAt: now }).where(eq(requestSubmissions.id, s.id));
  });
  await submissionSent(services, submissionId);
  return ownSubmission(services, caller, requestId, submissionId);
}

/**
 * The owner discards a submission its uploader did not send: its files (rows and bytes), its folder
 * if nothing else is in it, and the submission. One that was sent is the collection's: `409
 * conflict` (reason `sent`); its files are deleted like any other.
 */
export async function discardSubmission(services: Services, caller: Caller, requestId: string, submissionId: string): Promise<{ deleted: true }> {
  const removed = await services.db.transaction(async (tx) => {
    const s = await lockOwnSubmission(tx, caller, requestId, submissionId);
    if (s.finishedAt !== null) {
      throw new ApiError('conflict', said({ id: 'api.requests.submissionSentFilesCollection', defaultMessage: 'This submission was sent: its files are the collection’s now; delete them there.' }), { reason: 'sent' });
    }
    if (s.collectionId !== null) await lockCollection(tx, s.collectionId);
    return discardUnsent(tx, s, services.clock.now());
  });
  await deleteStoredBytes(services, removed);
  return { deleted: true };
}
