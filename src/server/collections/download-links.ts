import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import type { DownloadLinks } from '../downloads/links.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collectionFolders, files } from '../db/schema/index.js';
import { zipDownload, zipFileName } from '../downloads/content.js';
import { linksFor, OWNER_LINK_TTL_MS } from '../downloads/links.js';
import type { PlacedFile } from '../files/owners.js';
import type { Services } from '../services.js';
import { accessToGrant, type CollectionAccess } from './access.js';
import type { Caller } from '../core/caller.js';
import { invalidField } from '../core/errors.js';
import { ownCollection, type CollectionRow } from './collections.js';
import { folderOfCollection, subtreeCondition, type FolderRow } from './folders.js';
import { offeredFile } from './visibility.js';
import { said } from '../core/sentences.js';

/**
 * Downloads of a collection, of one folder (with everything under it) or of one file, through the
 * file engine's signed links and its streaming ZIP64 engine. The zip keeps the tree below the
 * folder asked for; each file's `path` in the links is its folder's path from the top.
 */

/** Signed links last an hour, for the owner and visitors alike; a page asks again when it needs to. */
export const COLLECTION_LINK_TTL_MS = OWNER_LINK_TTL_MS;

export type PlacedCollectionFile = PlacedFile & { folderPath: string | null };

/** The files the collection offers (complete and sent: visibility.ts), or of one folder's subtree, each with its folder's path from the top. */
export async function downloadableFilesOf(
  db: Pick<Database, 'select'>,
  collectionId: string,
  within: Pick<FolderRow, 'path'> | null,
): Promise<PlacedCollectionFile[]> {
  const rows = await db
    .select({ file: getTableColumns(files), folderPath: collectionFolders.path })
    .from(files)
    .innerJoin(collectionFiles, eq(collectionFiles.fileId, files.id))
    .leftJoin(collectionFolders, eq(collectionFolders.id, collectionFiles.folderId))
    .where(and(eq(collectionFiles.collectionId, collectionId), offeredFile, within ? subtreeCondition(within) : undefined))
    .orderBy(asc(files.seq));
  return rows.map(({ file, folderPath }) => ({ file, folderPath, path: relativeTo(within, folderPath) }));
}

/** A folder path relative to the folder a zip is made of: `A/B/C` under `A/B` is `C`; `A/B` itself is the top. */
function relativeTo(within: Pick<FolderRow, 'path'> | null, folderPath: string | null): string | null {
  if (within === null || folderPath === null) return folderPath;
  return folderPath.length > within.path.length ? folderPath.slice(within.path.length + 1) : null;
}

/** What a zip of the collection (or of one folder) holds and is called: the folder's name, or the collection's title. */
export async function collectionZipContent(db: Pick<Database, 'select'>, c: Pick<CollectionRow, 'id' | 'title' | 'createdAt'>, within: FolderRow | null) {
  const placed = await downloadableFilesOf(db, c.id, within);
  return { name: zipFileName(within ? within.name : c.title, 'collection'), files: placed, since: c.createdAt };
}

/**
 * Signed links for every complete file of the collection (or of one folder's subtree) and for the
 * zip of them, made under `access` and re-checked against it on every request; on `origin`, the
 * address the visitor is on (PUBLIC_URL, or the workspace's own domain).
 */
export async function collectionDownloadLinks(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>,
  c: CollectionRow,
  within: FolderRow | null,
  access: CollectionAccess,
  origin: string = services.config.PUBLIC_URL,
): Promise<DownloadLinks> {
  const expiresAt = new Date(services.clock.now().getTime() + COLLECTION_LINK_TTL_MS);
  const content = await collectionZipContent(services.db, c, within);
  const zip = zipDownload(content.name, content.files, content.since, services.storage);
  const urls = linksFor(
    services,
    { kind: 'collection', id: c.id },
    content.files.map((p) => p.file),
    accessToGrant(access),
    expiresAt,
    within?.id ?? null,
    origin,
  );
  return {
    expiresAt: expiresAt.toISOString(),
    files: content.files.map(({ file: f, folderPath }) => ({
      fileId: f.id,
      name: f.name,
      path: folderPath,
      sizeBytes: f.sizeBytes,
      crc32: f.crc32,
      url: urls.files.get(f.id)!,
    })),
    zip: { name: zip.name, sizeBytes: zip.layout.size, url: urls.zip },
  };
}

/** The owner's links (`GET /api/v1/collections/{id}/download-links`): the whole collection, or one folder's subtree. */
export async function ownerCollectionDownloadLinks(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>,
  caller: Caller,
  collectionId: string,
  folderId: string | undefined,
): Promise<DownloadLinks> {
  const c = await ownCollection(services, caller, collectionId);
  const within = folderId === undefined ? null : await folderOfCollection(services.db, c.id, folderId);
  if (folderId !== undefined && !within) throw invalidField('query', 'folderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
  return collectionDownloadLinks(services, c, within, { kind: 'owner' });
}
