import { callerActor, recordActivity } from '../activity/activity.js';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  collectionPasswordProblem,
  type Collection,
  type CollectionSummary,
  type CreateCollectionRequestSchema,
  type UpdateCollectionRequestSchema,
} from '../../contract/collections.js';
import { hashPassword } from '../auth/passwords.js';
import type { Caller } from '../core/caller.js';
import { invalidField, notFound } from '../core/errors.js';
import { newId, randomBase62 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collections, deletedCollectionLinks, files } from '../db/schema/index.js';
import { OWNER_LINK_TTL_MS } from '../downloads/links.js';
import { deleteStoredBytes, ownedBy } from '../files/stored.js';
import type { Services } from '../services.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { closeRequestsOfCollection } from './requests/requests.js';
import { formerSlugsOf, renameCollectionSlug, withUniqueSlugs } from './readable-links.js';
import { unsentFile } from './visibility.js';
import { said } from '../core/sentences.js';

/**
 * A workspace's collections: the operations the API, the dashboard and the MCP server call, as
 * plain functions of the services, the caller and the parsed input. Every lookup is by id and
 * workspace together, so another workspace's id is simply not found.
 */

export type CollectionRow = typeof collections.$inferSelect;
type CreateInput = z.output<typeof CreateCollectionRequestSchema>;
type UpdateInput = z.output<typeof UpdateCollectionRequestSchema>;

export const collectionUrl = (publicUrl: string, slug: string) => `${publicUrl}/c/${slug}`;

const byId = (caller: Caller, id: string) => and(eq(collections.workspaceId, caller.workspaceId), eq(collections.id, id))!;

const coverFiles = alias(files, 'cover_files');
const notInTrash = sql`not exists (select 1 from ${collectionFiles} where ${collectionFiles.fileId} = ${files.id} and ${collectionFiles.trashedAt} is not null)`;

/**
 * Collections with how many files each holds and their total size, in one grouped query (every
 * file registered in it counts, finished or not), and whether the cover has a preview yet. The
 * cover joins at most one row (a file of this collection, by id), so it does not change the sums.
 */
function collectionsWithStats(db: Pick<Database, 'select'>, where: SQL) {
  return db
    .select({
      c: collections,
      fileCount: count(files.id),
      sizeBytes: sql<number>`coalesce(sum(${files.sizeBytes}), 0)`.mapWith(Number),
      coverThumbnailState: coverFiles.thumbnailState,
    })
    .from(collections)
    // Files in the trash are not the collection's to count (their bytes still count in the workspace's storage).
    .leftJoin(files, and(eq(files.ownerKind, 'collection'), eq(files.ownerId, collections.id), notInTrash))
    .leftJoin(coverFiles, and(eq(coverFiles.id, collections.coverFileId), eq(coverFiles.ownerKind, 'collection'), eq(coverFiles.ownerId, collections.id)))
    .where(where)
    .groupBy(collections.id, coverFiles.id);
}

function toCollection(row: CollectionRow, publicUrl: string, stats: { fileCount: number; sizeBytes: number }): Collection {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    visibility: row.visibility,
    url: collectionUrl(publicUrl, row.slug),
    customLink: row.customLink,
    reviewMail: row.reviewMail,
    sizeBytes: stats.sizeBytes,
    fileCount: stats.fileCount,
    coverFileId: row.coverFileId,
    // Collections are a paid feature and nothing expires on a paid plan.
    expiresAt: null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Locks the caller's collection row for the rest of the transaction, or 404. Every change to its
 * folders and files takes this lock first, so two concurrent moves can never make a cycle and a
 * deleted collection takes nothing new.
 */
export async function lockOwnCollection(tx: Pick<Database, 'select'>, caller: Caller, id: string): Promise<CollectionRow> {
  const [row] = await tx.select().from(collections).where(byId(caller, id)).for('update');
  if (!row) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  return row;
}

/** Marks the collection changed now (its contents changed): it moves to the top of the list. */
export async function touchCollection(tx: Pick<Database, 'update'>, id: string, now: Date) {
  await tx.update(collections).set({ updatedAt: now }).where(eq(collections.id, id));
}

/** The caller's collection, or 404. */
export async function ownCollection(services: Pick<Services, 'db'>, caller: Caller, id: string): Promise<CollectionRow> {
  const [row] = await services.db.select().from(collections).where(byId(caller, id));
  if (!row) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  return row;
}

/**
 * Every collection of the workspace, most recently updated first, with file counts and sizes and
 * its cover's preview at a signed URL (an hour, as the owner's other links) for the dashboard's grid.
 */
export async function listCollections(services: Pick<Services, 'db' | 'config' | 'cursorKey' | 'clock'>, caller: Caller): Promise<CollectionSummary[]> {
  const rows = await collectionsWithStats(services.db, eq(collections.workspaceId, caller.workspaceId)).orderBy(
    desc(collections.updatedAt),
    desc(collections.id),
  );
  const previewsUntil = new Date(services.clock.now().getTime() + OWNER_LINK_TTL_MS);
  return rows.map(({ c, fileCount, sizeBytes, coverThumbnailState }) => ({
    id: c.id,
    title: c.title,
    slug: c.slug,
    visibility: c.visibility,
    fileCount,
    sizeBytes,
    coverFileId: c.coverFileId,
    coverUrl:
      c.coverFileId === null
        ? null
        : (thumbnailUrls(services, { kind: 'collection', id: c.id, expiresAt: previewsUntil }, [
            { id: c.coverFileId, thumbnailState: coverThumbnailState },
          ]).get(c.coverFileId) ?? null),
    updatedAt: c.updatedAt.toISOString(),
  }));
}

export async function getCollection(services: Pick<Services, 'db' | 'config'>, caller: Caller, id: string): Promise<Collection> {
  const [row] = await collectionsWithStats(services.db, byId(caller, id));
  if (!row) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  return toCollection(row.c, services.config.PUBLIC_URL, row);
}

export async function createCollection(services: Pick<Services, 'db' | 'clock' | 'config'>, caller: Caller, input: CreateInput): Promise<Collection> {
  const now = services.clock.now();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const row = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(collections)
      .values({
        id: newId('col'),
        workspaceId: caller.workspaceId,
        title: input.title,
        description: input.description || null,
        slug: randomBase62(22),
        visibility: input.visibility,
        passwordHash,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordSharing(tx, caller, row!, 'private', now);
    return row;
  });
  return toCollection(row!, services.config.PUBLIC_URL, {
    fileCount: 0,
    sizeBytes: 0,
  });
}

/** A collection going from private to public or password-protected is shared: the activity log says who did it. */
async function recordSharing(tx: Pick<Database, 'insert'>, caller: Caller, c: Pick<CollectionRow, 'id' | 'title' | 'visibility'>, before: CollectionRow['visibility'], now: Date) {
  if (before !== 'private' || c.visibility === 'private') return;
  await recordActivity(tx, caller.workspaceId, now, { kind: 'collection.shared', actor: callerActor(caller), subject: { type: 'collection', id: c.id, name: c.title }, detail: { visibility: c.visibility } });
}

/** Refuses a cover that is not a complete image file of this collection. */
async function assertCoverImage(tx: Pick<Database, 'select'>, collectionId: string, fileId: string) {
  const [f] = await tx
    .select({ mimeType: files.mimeType, state: files.state, unsent: unsentFile })
    .from(files)
    .innerJoin(collectionFiles, eq(collectionFiles.fileId, files.id))
    .where(and(eq(collectionFiles.collectionId, collectionId), eq(files.id, fileId)));
  if (!f) throw invalidField('body', 'coverFileId', said({ id: 'api.collections.noSuchFileCollection', defaultMessage: 'no such file in this collection' }));
  if (!f.mimeType.toLowerCase().startsWith('image/')) throw invalidField('body', 'coverFileId', said({ id: 'api.collections.coverMustImageFile', defaultMessage: 'the cover must be an image file' }));
  if (f.state !== 'complete') throw invalidField('body', 'coverFileId', said({ id: 'api.collections.imageFinishedUploading', defaultMessage: 'that image has not finished uploading' }));
  if (f.unsent) throw invalidField('body', 'coverFileId', said({ id: 'api.collections.imageSentYetUploader', defaultMessage: 'that image was not sent yet by its uploader; publish its submission first' }));
}

/** Changes what is given. Visibility `password` needs a password, sent now or set before; a cover must be an image of the collection. */
export async function updateCollection(
  services: Pick<Services, 'db' | 'clock' | 'config'>,
  caller: Caller,
  id: string,
  input: UpdateInput,
): Promise<Collection> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await withUniqueSlugs(() => services.db.transaction(async (tx) => {
    const current = await lockOwnCollection(tx, caller, id);
    const problem = collectionPasswordProblem(input.visibility ?? current.visibility, input.password !== undefined, current.passwordHash !== null);
    if (problem) {
      throw invalidField(
        'body',
        'password',
        problem === 'password is required for visibility password'
          ? said({ id: 'api.collections.passwordRequired', defaultMessage: 'password is required for visibility password' })
          : said({ id: 'api.collections.passwordOnlyForPassword', defaultMessage: 'password is only for visibility password' }),
      );
    }
    if (input.coverFileId) await assertCoverImage(tx, id, input.coverFileId);
    if (input.slug !== undefined) await renameCollectionSlug(tx, current, input.slug, services.clock.now());
    await tx
      .update(collections)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description || null } : {}),
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(passwordHash ? { passwordHash } : {}),
        ...(input.coverFileId !== undefined ? { coverFileId: input.coverFileId } : {}),
        ...(input.customLink !== undefined ? { customLink: input.customLink } : {}),
        ...(input.reviewMail !== undefined ? { reviewMail: input.reviewMail } : {}),
        updatedAt: services.clock.now(),
      })
      .where(byId(caller, id));
    if (input.visibility !== undefined) await recordSharing(tx, caller, { ...current, visibility: input.visibility, title: input.title ?? current.title }, current.visibility, services.clock.now());
  }));
  return getCollection(services, caller, id);
}

/** Deletes the collection and its files, rows first (an upload still arriving is refused), then the bytes. */
export async function deleteCollection(services: Pick<Services, 'db' | 'storage' | 'log' | 'clock'>, caller: Caller, id: string): Promise<{ deleted: true }> {
  const removed = await services.db.transaction(async (tx) => {
    // Its upload requests stay listed, closed for good (their collectionId becomes null with the row).
    await closeRequestsOfCollection(tx, caller.workspaceId, id, services.clock.now());
    // Read before the row goes (they go with it): every link it had, the names it was renamed from too, says it was
    // deleted from now on, and stays its workspace's to reuse.
    const formerSlugs = await formerSlugsOf(tx, id);
    const [row] = await tx
      .delete(collections)
      .where(byId(caller, id))
      .returning({ id: collections.id, slug: collections.slug, customLink: collections.customLink });
    if (!row) return null;
    const slugs = [row.slug, ...formerSlugs];
    await tx
      .insert(deletedCollectionLinks)
      .values(slugs.map((slug) => ({ slug, workspaceId: caller.workspaceId, customLink: row.customLink, deletedAt: services.clock.now() })))
      .onConflictDoNothing();
    // The stored files are the engine's rows, not the collection's: they go with it here.
    return tx.delete(files).where(ownedBy('collection', id)).returning({
      id: files.id,
      storageKey: files.storageKey,
      thumbnailKey: files.thumbnailKey,
    });
  });
  if (!removed) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  await deleteStoredBytes(services, removed);
  return { deleted: true };
}
