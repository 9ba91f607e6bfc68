import { and, eq } from 'drizzle-orm';
import { ApiError, notFound } from '../core/errors.js';
import { collections, files } from '../db/schema/index.js';
import { ZIP } from '../downloads/links.js';
import type { FileOwner, OpenedDownload } from '../files/owners.js';
import { linkUnavailable } from '../sharing/availability.js';
import { isWorkspaceActive } from '../workspaces/active.js';
import { accessHolds, accessOfGrant } from './access.js';
import { collectionZipContent } from './download-links.js';
import { announceCollectionFile, filesOfCollection, quarantineCollectionFile } from './files.js';
import { ABANDONED_UPLOAD_MS } from '../files/stored.js';
import { sharedFolderOfCollection } from './folders.js';
import { sentToCollection } from './visibility.js';
import { submissionFileArrived } from './requests/submissions.js';
import { said } from '../core/sentences.js';

/**
 * Collections as owners of files: they take uploads for as long as they exist, announce each
 * finished file (`collection.file_uploaded`), and serve a link only while the access it was made
 * under still holds (visibility, password, guest) and the workspace is not suspended. Collections
 * do not expire and downloads are not counted, so a download records nothing.
 */
export const collectionFileOwner: FileOwner = {
  kind: 'collection',

  // Upload-Expires: at the earliest a week after the collection last took files (see sweepAbandonedUploads).
  async status(db, collectionId) {
    const [c] = await db.select({ updatedAt: collections.updatedAt }).from(collections).where(eq(collections.id, collectionId));
    if (!c) return null;
    return { live: true, keptUntil: new Date(c.updatedAt.getTime() + ABANDONED_UPLOAD_MS), encrypted: false };
  },

  async fileCompleted(services, file) {
    await announceCollectionFile(services, file);
    // The last file of an upload request's submission completes it (request.submitted).
    await submissionFileArrived(services, file.id);
  },

  async fileInfected(services, file, signature) {
    await quarantineCollectionFile(services, file, signature);
  },

  // Collections are a paid feature: an import may be as large as the paid plan's transfer.
  async importCeiling(services) {
    return services.config.PAID_TRANSFER_MAX_BYTES;
  },

  // Nobody is mailed: the collection's page and the API show the file as failed, with its reason.
  async importFailed() {},

  async assertViewable(services, collectionId, fileId) {
    const [c] = await services.db.select({ workspaceId: collections.workspaceId }).from(collections).where(eq(collections.id, collectionId));
    if (!c) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
    if (!(await isWorkspaceActive(services.db, c.workspaceId))) throw linkUnavailable('suspended');
    // A file in the trash is out of sight at once, its preview too.
    const [live] = await filesOfCollection(services.db, collectionId, eq(files.id, fileId));
    if (!live) throw notFound(said({ id: 'api.collections.fileNotFound', defaultMessage: 'File not found' }));
  },

  async openDownload(services, grant) {
    const { db } = services;
    const [c] = await db.select().from(collections).where(eq(collections.id, grant.ownerId));
    const access = accessOfGrant(grant.sessionId);
    if (!c || !access) throw notFound(said({ id: 'api.collections.collectionNotFound', defaultMessage: 'Collection not found' }));
    if (!(await isWorkspaceActive(db, c.workspaceId))) throw linkUnavailable('suspended');
    if (!(await accessHolds(db, c, access))) {
      throw new ApiError('link_unavailable', said({ id: 'api.collections.linkNoLongerGives', defaultMessage: 'This link no longer gives access to the collection; open the collection again.' }), { reason: 'revoked' });
    }

    let target: OpenedDownload['target'];
    if (grant.fileId === ZIP) {
      const within = grant.within === null ? null : await sharedFolderOfCollection(db, c.id, grant.within);
      if (grant.within !== null && !within) throw notFound(said({ id: 'api.collections.folderNotFound', defaultMessage: 'Folder not found' }));
      target = { kind: 'zip', ...(await collectionZipContent(db, c, within)) };
    } else {
      const [file] = await filesOfCollection(db, c.id, and(eq(files.id, grant.fileId), sentToCollection));
      if (!file) throw notFound(said({ id: 'api.collections.fileNotFound', defaultMessage: 'File not found' }));
      target = { kind: 'file', file };
    }
    return { target, encrypted: false, begin: async () => null };
  },
};
