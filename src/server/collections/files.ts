import { and, asc, eq, getTableColumns, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AddCollectionFilesRequestSchema, CollectionFile, FileAdder, UpdateCollectionFileRequestSchema } from '../../contract/collections.js';
import type { Caller } from '../core/caller.js';
import { invalidField, notFound } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { apiKeys, collectionComments, collectionFiles, collectionFolders, collections, files, users, type CollectionFileSource, type FileRecord, type ReviewState } from '../db/schema/index.js';
import { emitEvent } from '../events/emit.js';
import { deleteStoredBytes, ownedBy } from '../files/stored.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import type { Services } from '../services.js';
import { chargeApiUpload } from '../uploads/usage.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { checkImportUrls, registerImports, registerUploads, tusEndpoint } from '../uploads/register.js';
import { lockOwnCollection, ownCollection, touchCollection, type CollectionRow } from './collections.js';
import { renderEmail } from '../mail/html.js';
import { subjectLine } from '../mail/message.js';
import { mailWorkspace } from '../mail/workspace-mail.js';
import { COLLECTION_LINK_TTL_MS } from './download-links.js';
import { ensureFolderPaths, folderOfCollection } from './folders.js';
import { liveFile, sentToCollection, unsentFile } from './visibility.js';
import { said } from '../core/sentences.js';

/**
 * A collection's files: the engine's stored file (`files`) with the collection's own part of it
 * (`collection_files`: its folder, where it came from). Uploads go through the one tus endpoint
 * with the same tokens, exact sizes and CRC-32 as transfers.
 */

export type CollectionFileRow = FileRecord & {
  folderId: string | null;
  /** What brought it into the collection (the engine's own `source` says upload or import). */
  origin: CollectionFileSource;
  uploaderName: string | null;
  uploaderEmail: string | null;
  /** The contributor guest who added it (null once removed, and for everyone else's). */
  addedByGuest: string | null;
  addedBy: FileAdder | null;
  /** Brought by an upload request whose uploader has not sent it yet: the owner's alone (see visibility.ts). */
  unsent: boolean;
  reviewState: ReviewState | null;
  reviewedByKind: 'member' | 'key' | 'guest' | null;
  reviewedByEmail: string | null;
  reviewedAt: Date | null;
  commentCount: number;
};

/**
 * Who added the file (contract: FileAdderSchema): the member or key recorded with it, or the upload
 * request's uploader. Written with the table's name, as drizzle leaves a one-table select's columns bare.
 */
const fileAdder = sql<FileAdder | null>`case
  when "collection_files"."added_by" is not null then (select json_build_object('kind', 'member', 'id', u.id, 'name', u.name, 'email', u.email) from ${users} u where u.id = "collection_files"."added_by")
  when "collection_files"."added_by_key" is not null then (select json_build_object('kind', 'key', 'id', k.id, 'name', k.name, 'email', null) from ${apiKeys} k where k.id = "collection_files"."added_by_key")
  when "collection_files"."added_by_guest_email" is not null then json_build_object('kind', 'guest', 'id', "collection_files"."added_by_guest", 'name', null, 'email', "collection_files"."added_by_guest_email")
  when "collection_files"."source" = 'file_request' then json_build_object('kind', 'uploader', 'id', null, 'name', "collection_files"."uploader_name", 'email', "collection_files"."uploader_email")
end`;

const collectionFileColumns = {
  ...getTableColumns(files),
  folderId: collectionFiles.folderId,
  origin: collectionFiles.source,
  uploaderName: collectionFiles.uploaderName,
  uploaderEmail: collectionFiles.uploaderEmail,
  addedByGuest: collectionFiles.addedByGuest,
  addedBy: fileAdder,
  unsent: unsentFile,
  reviewState: collectionFiles.reviewState,
  reviewedByKind: collectionFiles.reviewedByKind,
  reviewedByEmail: collectionFiles.reviewedByEmail,
  reviewedAt: collectionFiles.reviewedAt,
  commentCount: sql<number>`(select count(*) from ${collectionComments} where ${collectionComments.fileId} = "files"."id")`.mapWith(Number),
};

/**
 * A collection's files (all, or those matching `where`), oldest first, those in the trash left out. The collection also owns
 * each of its files in the engine's terms; saying so lets files_owner_idx (owner, seq) give them in
 * order, so a page reads its own rows and not every file of the collection.
 */
export function filesOfCollection(db: Pick<Database, 'select'>, collectionId: string, where?: SQL) {
  return db
    .select(collectionFileColumns)
    .from(files)
    .innerJoin(collectionFiles, eq(collectionFiles.fileId, files.id))
    .where(and(ownedBy('collection', collectionId), eq(collectionFiles.collectionId, collectionId), liveFile, where))
    .orderBy(asc(files.seq));
}

export function toCollectionFile(f: CollectionFileRow): CollectionFile {
  return {
    id: f.id,
    name: f.name,
    sizeBytes: f.sizeBytes,
    mimeType: f.mimeType,
    folderId: f.folderId,
    hasThumbnail: f.thumbnailState === 'ready',
    crc32: f.crc32,
    state: f.state,
    error: f.state === 'failed' ? f.error : null,
    scanResult: f.scanResult,
    unsent: f.unsent,
    addedBy: f.addedBy,
    review: f.reviewState && f.reviewedByKind && f.reviewedAt ? { state: f.reviewState, by: { kind: f.reviewedByKind, email: f.reviewedByEmail }, at: f.reviewedAt.toISOString() } : null,
    commentCount: f.commentCount,
    createdAt: f.createdAt.toISOString(),
  };
}

/**
 * One page of a collection's files by registration order, or all of them when no limit is given.
 * The cursor is the last file's sequence number, bound to this collection and workspace.
 */
export async function pageOfCollectionFiles(
  services: Pick<Services, 'db' | 'cursorKey'>,
  scope: { workspaceId: string; collectionId: string },
  query: { limit?: number; cursor?: string },
  where?: SQL,
): Promise<{ files: CollectionFileRow[]; nextCursor: string | null }> {
  const list = `collection-files:${scope.collectionId}`;
  const after = decodeCursor(services.cursorKey, list, scope.workspaceId, query.cursor);
  const afterSeq = after?.[0];
  if (after !== null && typeof afterSeq !== 'number') throw invalidField('query', 'cursor', said({ id: 'api.collections.unknownCursor', defaultMessage: 'unknown cursor' }));
  const seqAfter = typeof afterSeq === 'number' ? gt(files.seq, afterSeq) : undefined;
  let q = filesOfCollection(services.db, scope.collectionId, and(where, seqAfter)).$dynamic();
  if (query.limit !== undefined) q = q.limit(query.limit + 1);
  const rows = await q;
  const more = query.limit !== undefined && rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return { files: page, nextCursor: more && last ? encodeCursor(services.cursorKey, list, scope.workspaceId, [last.seq]) : null };
}

/** Preview URLs of a collection's files last as long as its download links; collections themselves never expire. */
export const collectionPreviewOwner = (services: Pick<Services, 'clock'>, c: { id: string }) => ({
  kind: 'collection' as const,
  id: c.id,
  expiresAt: new Date(services.clock.now().getTime() + COLLECTION_LINK_TTL_MS),
});

/** The listing filter of `?review=`: files whose latest decision is this one, or `none` yet. */
export function reviewFilter(review: 'approved' | 'changes_requested' | 'none' | undefined): SQL | undefined {
  if (review === undefined) return undefined;
  return review === 'none' ? isNull(collectionFiles.reviewState) : eq(collectionFiles.reviewState, review);
}

/** The owner's listing; with `thumbnails`, each file carries its preview's signed URL (null without one), as visitors' pages do. */
export async function listCollectionFiles(
  services: Pick<Services, 'db' | 'cursorKey' | 'config' | 'clock'>,
  caller: Caller,
  collectionId: string,
  query: { limit?: number; cursor?: string; thumbnails?: boolean; review?: 'approved' | 'changes_requested' | 'none' },
) {
  const c = await ownCollection(services, caller, collectionId);
  const page = await pageOfCollectionFiles(services, { workspaceId: caller.workspaceId, collectionId: c.id }, query, reviewFilter(query.review));
  if (!query.thumbnails) return { files: page.files.map(toCollectionFile), nextCursor: page.nextCursor };
  const previews = thumbnailUrls(services, collectionPreviewOwner(services, c), page.files);
  return { files: page.files.map((f) => ({ ...toCollectionFile(f), thumbnailUrl: previews.get(f.id) ?? null })), nextCursor: page.nextCursor };
}

type AddInput = z.output<typeof AddCollectionFilesRequestSchema>;

/**
 * Registers files for upload into a collection: into `folderId` (or the top level), each under its
 * relative `path`, whose folders are made as needed. Through the API the bytes count as usage, as
 * for transfers; the dashboard's own uploads do not.
 */
export async function addCollectionFiles(services: Services, caller: Caller, collectionId: string, input: AddInput) {
  checkImportUrls(services, input.imports);
  const now = services.clock.now();
  const source: CollectionFileSource = caller.via === 'session' ? 'web' : 'api';
  return services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    const parentId = input.folderId ?? null;
    if (parentId !== null && !(await folderOfCollection(tx, c.id, parentId))) throw invalidField('body', 'folderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
    // Imports are charged like API uploads (their declared sizes), wherever they come from: the service does the fetching.
    const charged = (source === 'api' ? input.files.reduce((s, f) => s + f.size, 0) : 0) + input.imports.reduce((s, i) => s + (i.size ?? 0), 0);
    if (source === 'api' || input.imports.length > 0) await chargeApiUpload(tx, services, caller.workspaceId, charged, now, { check: input.imports.length > 0 });
    const folderIds = await ensureFolderPaths(
      tx,
      c.id,
      parentId,
      [...input.files.map((f) => f.path ?? null), ...input.imports.map((i) => i.path ?? null)],
      now,
      (i) => (i < input.files.length ? `files.${i}.path` : `imports.${i - input.files.length}.path`),
    );
    const owner = { kind: 'collection' as const, id: c.id, workspaceId: c.workspaceId };
    const targets = await registerUploads(tx, services, owner, input.files, now);
    const imports = await registerImports(tx, owner, input.imports, now);
    const addedBy = { addedBy: caller.member?.userId ?? null, addedByKey: caller.member === null && caller.via === 'key' ? caller.credentialId : null };
    const rows = [
      ...targets.map((t, i) => ({ fileId: t.id, collectionId: c.id, folderId: folderIds[i] ?? null, source, ...addedBy })),
      ...imports.map((entry, i) => ({ fileId: entry.fileId, collectionId: c.id, folderId: folderIds[input.files.length + i] ?? null, source: 'import' as const, ...addedBy })),
    ];
    if (rows.length > 0) await tx.insert(collectionFiles).values(rows);
    await touchCollection(tx, c.id, now);
    return { tusEndpoint: tusEndpoint(services.config.PUBLIC_URL), files: targets, imports };
  });
}

type UpdateInput = z.output<typeof UpdateCollectionFileRequestSchema>;

/** Renames and/or moves one file. */
export async function updateCollectionFile(services: Pick<Services, 'db' | 'clock'>, caller: Caller, collectionId: string, fileId: string, input: UpdateInput) {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    const [current] = await filesOfCollection(tx, c.id, eq(files.id, fileId));
    if (!current) throw notFound(said({ id: 'api.collections.fileNotFound', defaultMessage: 'File not found' }));
    if (input.folderId !== undefined && input.folderId !== null && !(await folderOfCollection(tx, c.id, input.folderId))) {
      throw invalidField('body', 'folderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
    }
    if (input.name !== undefined) await tx.update(files).set({ name: input.name }).where(eq(files.id, fileId));
    if (input.folderId !== undefined) await tx.update(collectionFiles).set({ folderId: input.folderId }).where(eq(collectionFiles.fileId, fileId));
    await touchCollection(tx, c.id, now);
    const [changed] = await filesOfCollection(tx, c.id, eq(files.id, fileId));
    return toCollectionFile(changed!);
  });
}

/** Deletes these files' rows (the collection is locked); the caller deletes their bytes once committed. */
export async function removeFromCollection(tx: Pick<Database, 'delete' | 'update'>, c: Pick<CollectionRow, 'id' | 'coverFileId'>, ids: string[], now: Date) {
  if (ids.length === 0) return [];
  const rows = await tx.delete(files).where(inArray(files.id, ids)).returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
  if (c.coverFileId !== null && ids.includes(c.coverFileId)) await tx.update(collections).set({ coverFileId: null }).where(eq(collections.id, c.id));
  await touchCollection(tx, c.id, now);
  return rows;
}

/**
 * Quarantines a file the virus scan found infected: it leaves the collection (listings, downloads,
 * zips, the cover) and its bytes are deleted; the workspace is mailed, once, naming the file, its
 * folder and what was found.
 */
export async function quarantineCollectionFile(services: Pick<Services, 'db' | 'clock' | 'config' | 'storage' | 'log' | 'mailer'>, file: FileRecord, signature: string) {
  const now = services.clock.now();
  const quarantined = await services.db.transaction(async (tx) => {
    const [placed] = await tx
      .select({ c: collections, folderPath: collectionFolders.path })
      .from(collectionFiles)
      .innerJoin(collections, eq(collections.id, collectionFiles.collectionId))
      .leftJoin(collectionFolders, eq(collectionFolders.id, collectionFiles.folderId))
      .where(eq(collectionFiles.fileId, file.id))
      .for('update', { of: collections });
    if (!placed) return null;
    const rows = await removeFromCollection(tx, placed.c, [file.id], now);
    return rows.length > 0 ? { ...placed, rows } : null;
  });
  if (!quarantined) return;
  await deleteStoredBytes(services, quarantined.rows);
  const { c, folderPath } = quarantined;
  await mailWorkspace(services, c.workspaceId, (intl, locale) => {
    const values = { file: file.name, folder: folderPath ?? '', collection: c.title, signature };
    const content = renderEmail({
      locale,
      heading: intl.formatMessage({ id: 'mail.collectionInfected.heading', defaultMessage: 'Malware found in a file of “{collection}”', description: 'collection: the collection\'s title' }, values),
      paragraphs: [
        folderPath
          ? intl.formatMessage(
              { id: 'mail.collectionInfected.foundInFolder', defaultMessage: 'The virus scan found {signature} in “{file}”, in the folder “{folder}” of your collection “{collection}”.', description: 'signature: the name of the malware, as the scanner calls it; file: the file\'s name; folder: its folder\'s path' },
              values,
            )
          : intl.formatMessage({ id: 'mail.collectionInfected.found', defaultMessage: 'The virus scan found {signature} in “{file}”, in your collection “{collection}”.', description: 'signature: the name of the malware, as the scanner calls it; file: the file\'s name' }, values),
        intl.formatMessage({ id: 'mail.collectionInfected.quarantined', defaultMessage: 'The file was quarantined: nobody can see or download it, and it was deleted. The rest of the collection is unchanged.' }),
      ],
      action: { label: intl.formatMessage({ id: 'mail.collection.open', defaultMessage: 'Open the collection' }), url: `${services.config.PUBLIC_URL}/collections/${encodeURIComponent(c.id)}` },
    });
    return {
      subject: subjectLine(intl.formatMessage({ id: 'mail.collectionInfected.subject', defaultMessage: 'Malware quarantined: {file}', description: 'file: the file\'s name' }, values)),
      text: content.text,
      html: content.html,
      tag: 'collection.file-quarantined',
    };
  });
}

/**
 * A file of the collection finished uploading: `collection.file_uploaded`, exactly once per file
 * (the engine may report a completion twice), marked in the same transaction as the event. A file
 * of a submission not sent yet is not the collection's yet (visibility.ts): it is announced when
 * the submission is sent (announceSubmissionFiles), and never if it is discarded.
 */
export async function announceCollectionFile(services: Pick<Services, 'db' | 'clock' | 'config'>, file: FileRecord) {
  const now = services.clock.now();
  await services.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(collectionFiles)
      .set({ announcedAt: now })
      .where(and(eq(collectionFiles.fileId, file.id), isNull(collectionFiles.announcedAt), sentToCollection, liveFile))
      // Who added it, as the owner's listing shows it.
      .returning({ ...getTableColumns(collectionFiles), adder: fileAdder });
    if (!claimed) return;
    const [c] = await tx
      .select({ id: collections.id, title: collections.title, workspaceId: collections.workspaceId })
      .from(collections)
      .where(eq(collections.id, claimed.collectionId));
    if (!c) return;
    await emitEvent(tx, {
      workspaceId: c.workspaceId,
      type: 'collection.file_uploaded',
      subject: { kind: 'collection', id: c.id },
      now, billing: services.config,
      data: {
        collection: { id: c.id, title: c.title },
        file: { id: file.id, name: file.name, size: file.sizeBytes, mimeType: file.mimeType, crc32: file.crc32, folderId: claimed.folderId },
        source: claimed.source,
        // Only upload requests know who sent a file; the key is absent otherwise.
        ...(claimed.source === 'file_request' ? { uploader: { name: claimed.uploaderName, email: claimed.uploaderEmail } } : {}),
        addedBy: claimed.adder,
      },
    });
  });
}

/** A submission was sent: its files that arrived before are announced now (those still arriving, as they land). */
export async function announceSubmissionFiles(services: Pick<Services, 'db' | 'clock' | 'config'>, submissionId: string) {
  const arrived = await services.db
    .select(getTableColumns(files))
    .from(files)
    .innerJoin(collectionFiles, eq(collectionFiles.fileId, files.id))
    .where(and(eq(collectionFiles.submissionId, submissionId), eq(files.state, 'complete'), isNull(collectionFiles.announcedAt)))
    .orderBy(asc(files.seq));
  for (const file of arrived) await announceCollectionFile(services, file);
}
