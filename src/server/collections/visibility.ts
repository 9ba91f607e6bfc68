import { and, isNull, sql, type SQL } from 'drizzle-orm';
import { collectionFiles, collectionFolders, requestSubmissions } from '../db/schema/index.js';
import { downloadable } from '../files/stored.js';

/**
 * What of a collection anyone but its owner may see. Files an uploader added through an upload
 * request are not the collection's until the uploader pressed Send (their submission's
 * `finished_at`), or the owner published the submission: until then they are the owner's alone,
 * marked "not sent yet", and absent from every visitor's and guest's page, count, zip, download
 * link, preview and folder list, and from every download link and zip the owner hands out. Every
 * read path takes these predicates; none filters on its own.
 */

/** A `collection_files` row is part of the collection: not brought by an upload request, or its submission was sent. */
export const sentToCollection: SQL = sql`(${collectionFiles.submissionId} is null or exists (select 1 from ${requestSubmissions} where ${requestSubmissions.id} = ${collectionFiles.submissionId} and ${requestSubmissions.finishedAt} is not null))`;

/** The owner's marker: the file belongs to a submission its uploader has not sent (yet). */
export const unsentFile = sql<boolean>`(not ${sentToCollection})`.mapWith(Boolean);

/** A `collection_files` row not in the trash (collections/trash.ts): the owner's listings take it too. */
export const liveFile: SQL = isNull(collectionFiles.trashedAt);

/** What may be listed, counted, zipped or linked for download: complete, not infected, sent, and not in the trash. */
export const offeredFile: SQL = and(downloadable, sentToCollection, liveFile)!;

/**
 * A `collection_folders` row anyone but the owner may see: not the folder of a submission that was
 * not sent, nor anything under it. A submission's folder is made for it alone (the first free name),
 * so hiding its subtree hides nothing else; `starts_with` because names may hold LIKE's wildcards.
 */
export const visibleFolder: SQL = sql`not exists (select 1 from ${requestSubmissions} unsent_s join ${collectionFolders} unsent_f on unsent_f.id = unsent_s.folder_id where unsent_s.finished_at is null and unsent_f.collection_id = ${collectionFolders.collectionId} and (${collectionFolders.path} = unsent_f.path or starts_with(${collectionFolders.path}, unsent_f.path || '/')))`;
