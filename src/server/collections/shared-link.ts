import { and, eq, isNull } from 'drizzle-orm';
import type { UnlockResponse } from '../../contract/public.js';
import { ROOT_FOLDER, type PublicCollection, type PublicCollectionFilePage } from '../../contract/public-collections.js';
import { notFound } from '../core/errors.js';
import { collectionFiles, collections, deletedCollectionLinks, workspaces } from '../db/schema/index.js';
import type { DownloadLinks } from '../downloads/links.js';
import { zipDownload } from '../downloads/content.js';
import { awaitingScan } from '../files/stored.js';
import type { Services } from '../services.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { linkUnavailable } from '../sharing/availability.js';
import { unlockWithPassword } from '../sharing/unlock.js';
import { visitorAccess, type CollectionAccess } from './access.js';
import type { CollectionRow } from './collections.js';
import { collectionDownloadLinks, collectionZipContent } from './download-links.js';
import { collectionPreviewOwner, pageOfCollectionFiles, toCollectionFile } from './files.js';
import { sharedFolderOfCollection, sharedFoldersOf, toFolder, type FolderRow } from './folders.js';
import { offeredFile } from './visibility.js';
import { recordGuestVisit, type SharedCollection } from './guests.js';
import { collectionOfFormerSlug } from './readable-links.js';
import { contributorScope } from './contributions.js';
import { isActiveWorkspace } from '../workspaces/active.js';
import { said } from '../core/sentences.js';

/**
 * A collection's secret link as its visitors use it: open it by slug, prove who they are, read
 * what it holds, get signed download links. Plain functions of the services and parsed input; the
 * public routes (public/collections.ts) only parse, call and answer. The slug is the capability,
 * compared only by exact equality; nothing of the workspace but its name is ever shown.
 *
 * Plans are not checked here: a collection of a workspace whose paid plan lapsed is kept read-only
 * (the workspace cannot change it through the API), and its visitors keep reading and downloading.
 */

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;

/** Whether a path segment can be a slug at all: cheap to check before any query, and safe in a cookie path. */
export const isSlugShaped = (slug: string) => SLUG.test(slug);

/**
 * The collection behind a slug: 404 for an unknown one, 410 `link_unavailable` (`suspended`) while the operator has
 * disabled its workspace. On a workspace's own domain (`onDomainOf`, that workspace's id) only its collections with
 * `customLink` on exist, as its pages do: any other is a 404, whatever became of its workspace.
 */
export async function openSharedCollection(services: Pick<Services, 'db'>, slug: string, onDomainOf: string | null = null): Promise<SharedCollection> {
  if (!isSlugShaped(slug)) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  const bySlug = (current: string) =>
    services.db
      .select({ c: collections, workspaceName: workspaces.name, disabledAt: workspaces.disabledAt })
      .from(collections)
      .innerJoin(workspaces, eq(workspaces.id, collections.workspaceId))
      .where(and(eq(collections.slug, current), onDomainOf === null ? undefined : and(eq(collections.workspaceId, onDomainOf), eq(collections.customLink, true))));
  let [row] = await bySlug(slug);
  if (!row) {
    // A name the collection had before its owner renamed its link opens it still (its pages redirect first).
    const renamed = await collectionOfFormerSlug(services.db, slug, onDomainOf);
    if (renamed) [row] = await bySlug(renamed.slug);
  }
  if (!row) {
    const [deleted] = await services.db
      .select({ slug: deletedCollectionLinks.slug })
      .from(deletedCollectionLinks)
      .where(
        and(
          eq(deletedCollectionLinks.slug, slug),
          onDomainOf === null ? undefined : and(eq(deletedCollectionLinks.workspaceId, onDomainOf), eq(deletedCollectionLinks.customLink, true)),
        ),
      );
    throw deleted ? linkUnavailable('deleted') : notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
  }
  if (!isActiveWorkspace(row)) throw linkUnavailable('suspended');
  return { c: row.c, workspaceName: row.workspaceName };
}

/**
 * What the collection page shows first: its text, cover, folders, totals and the zip of everything. A guest's visit is
 * noted on the way. Signed URLs here and below are on `origin`, the address the visitor is on (PUBLIC_URL, or the
 * workspace's own domain).
 */
export async function describeSharedCollection(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>,
  shared: SharedCollection,
  access: CollectionAccess,
  origin: string,
): Promise<PublicCollection> {
  const { c } = shared;
  const content = await collectionZipContent(services.db, c, null);
  const zip = zipDownload(content.name, content.files, content.since, services.storage);
  const folders = await sharedFoldersOf(services.db, c.id);
  // A cover that is not (or no longer) a complete file of the collection is not shown.
  const coverFile = c.coverFileId === null ? undefined : content.files.find((p) => p.file.id === c.coverFileId)?.file;
  const guestEmail = access.kind === 'guest' ? await recordGuestVisit(services, access.guestId) : null;
  const contributor = await contributorScope(services.db, c, access);
  return {
    title: c.title,
    description: c.description,
    workspaceName: shared.workspaceName,
    visibility: c.visibility,
    cover: coverFile
      ? { fileId: coverFile.id, thumbnailUrl: thumbnailUrls(services, collectionPreviewOwner(services, c), [coverFile], origin).get(coverFile.id) ?? null }
      : null,
    folders: folders.map(toFolder),
    fileCount: content.files.length,
    totalBytes: content.files.reduce((sum, p) => sum + p.file.sizeBytes, 0),
    zip: { name: zip.name, sizeBytes: zip.layout.size },
    access: access.kind === 'owner' ? 'public' : access.kind,
    guestEmail,
    upload: contributor ? { folderId: contributor.folder?.id ?? null } : null,
  };
}

/** A folder of this collection named by a visitor, or 404 (also for one only the owner sees). */
async function visitedFolder(services: Pick<Services, 'db'>, c: Pick<CollectionRow, 'id'>, folderId: string): Promise<FolderRow> {
  const folder = await sharedFolderOfCollection(services.db, c.id, folderId);
  if (!folder) throw notFound(said({ id: 'api.collections.folderNotFound', defaultMessage: 'Folder not found' }));
  return folder;
}

/**
 * A page of the collection's complete files, oldest first: every file, the top level only
 * (`root`), or the files directly in one folder. Each image comes with its preview's signed URL.
 */
export async function pageOfSharedFiles(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey'>,
  c: CollectionRow,
  query: { folderId?: string; limit: number; cursor?: string },
  origin: string,
  access: CollectionAccess,
): Promise<PublicCollectionFilePage> {
  let inFolder;
  if (query.folderId === ROOT_FOLDER) inFolder = isNull(collectionFiles.folderId);
  else if (query.folderId !== undefined) inFolder = eq(collectionFiles.folderId, (await visitedFolder(services, c, query.folderId)).id);
  // The cursor is bound to the collection and its workspace, as the workspace's own listing's is.
  const page = await pageOfCollectionFiles(services, { workspaceId: c.workspaceId, collectionId: c.id }, query, and(offeredFile, inFolder));
  const previews = thumbnailUrls(services, collectionPreviewOwner(services, c), page.files, origin);
  return {
    files: page.files.map((f) => {
      // Neither what is not sent yet nor who of the workspace added it is the visitor's business; a contributor's file
      // says it was a guest's (which one only to that guest).
      const { unsent: _, addedBy: __, ...file } = toCollectionFile(f);
      const contributedBy = f.addedBy?.kind !== 'guest' ? null : access.kind === 'guest' && f.addedByGuest === access.guestId ? ('you' as const) : ('guest' as const);
      // Comments and decisions are the guests' and the workspace's: other visitors see none.
      const review = access.kind === 'guest' ? { review: file.review, commentCount: file.commentCount } : { review: null, commentCount: 0 };
      return { ...file, ...review, contributedBy, thumbnailUrl: previews.get(f.id) ?? null, scanPending: awaitingScan(services.config, f) };
    }),
    nextCursor: page.nextCursor,
  };
}

/** Signed links for the visitor, made under their access: everything, or one folder and all under it. */
export async function sharedDownloadLinks(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>,
  c: CollectionRow,
  folderId: string | undefined,
  access: CollectionAccess,
  origin: string,
): Promise<DownloadLinks> {
  const within = folderId === undefined ? null : await visitedFolder(services, c, folderId);
  return collectionDownloadLinks(services, c, within, access, origin);
}

/**
 * An unlock token for a password-protected collection, for the right password, with failed
 * attempts limited per collection and address (the transfers' limiter: collection ids are their
 * own keys). A public collection needs no password and gets a token that proves nothing, so the
 * page's flow stays the same; a private one answers `403 guests_only`.
 */
export async function unlockSharedCollection(
  services: Pick<Services, 'db' | 'clock' | 'cursorKey' | 'rateLimits'>,
  c: CollectionRow,
  password: string,
  address: string,
): Promise<UnlockResponse> {
  if (c.visibility !== 'password' || c.passwordHash === null) {
    await visitorAccess(services, c, {});
    return unlockWithPassword(services, { id: c.id, passwordHash: null }, password, address, 'collection');
  }
  return unlockWithPassword(services, { id: c.id, passwordHash: c.passwordHash }, password, address, 'collection');
}
