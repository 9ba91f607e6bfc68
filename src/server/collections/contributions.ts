import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { GuestUploadRequestSchema } from '../../contract/public-collections.js';
import { ApiError, invalidInput } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collectionGuests, collections } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { registerUploads, tusEndpoint } from '../uploads/register.js';
import type { CollectionAccess } from './access.js';
import { touchCollection, type CollectionRow } from './collections.js';
import { ensureFolderPaths, folderOfCollection } from './folders.js';
import { said, type Sentence } from '../core/sentences.js';

/**
 * Guests who contribute: an owner invites a guest as a `contributor`, who may then upload into the collection, or
 * into one folder and everything under it. The permission is read from the guest's row on every request, so a
 * change of role, a removed guest, or their folder deleted (or in the trash) takes effect at once: without its
 * folder a contributor may upload nowhere, never everywhere. Their files are the collection's like any other, and
 * say which guest added them.
 */

/** Where a contributor may upload: `{ folder }` (null: anywhere), or null when the access is not a contributor's or their folder is gone. */
export async function contributorScope(
  db: Pick<Database, 'select'>,
  c: Pick<CollectionRow, 'id'>,
  access: CollectionAccess,
): Promise<{ guestId: string; email: string; folder: { id: string; path: string } | null } | null> {
  if (access.kind !== 'guest') return null;
  const [guest] = await db
    .select({ id: collectionGuests.id, email: collectionGuests.email, role: collectionGuests.role, folderId: collectionGuests.uploadFolderId })
    .from(collectionGuests)
    .where(and(eq(collectionGuests.id, access.guestId), eq(collectionGuests.collectionId, c.id)));
  if (guest?.role !== 'contributor') return null;
  if (guest.folderId === null) return { guestId: guest.id, email: guest.email, folder: null };
  const folder = await folderOfCollection(db, c.id, guest.folderId);
  return folder ? { guestId: guest.id, email: guest.email, folder: { id: folder.id, path: folder.path } } : null;
}

type GuestUpload = z.output<typeof GuestUploadRequestSchema>;

const notAllowed = (message: Sentence) => new ApiError('forbidden', message, { reason: 'not_a_contributor' });

/**
 * Registers a contributor's files for upload (the same tus endpoint, tokens and checks as the owner's uploads), into
 * `folderId` (their folder when absent) under each file's relative path. A visitor who is not a contributor, or a
 * folder outside theirs, is `403 forbidden`; an unknown folder is `400` naming `folderId`. Not counted as API usage:
 * the workspace invited them, as its dashboard's uploads are not.
 */
export async function addGuestFiles(services: Services, c: CollectionRow, access: CollectionAccess, input: GuestUpload) {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    await tx.select({ id: collections.id }).from(collections).where(eq(collections.id, c.id)).for('update');
    const scope = await contributorScope(tx, c, access);
    if (!scope) throw notAllowed(said({ id: 'api.collections.notAContributor', defaultMessage: 'Only guests invited to contribute may add files to this collection.' }));
    const parentId = input.folderId === undefined ? (scope.folder?.id ?? null) : input.folderId;
    const parent = parentId === null ? null : await folderOfCollection(tx, c.id, parentId);
    if (parentId !== null && !parent) throw new ApiError('invalid_request', invalidInput('body', 'folderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' })), { fields: [{ path: 'folderId', message: 'no such folder in this collection' }] });
    if (scope.folder && !(parent && (parent.id === scope.folder.id || parent.path.startsWith(`${scope.folder.path}/`)))) {
      throw notAllowed(said({ id: 'api.collections.outsideContributorFolder', defaultMessage: 'You may add files only to the folder “{folder}” and the folders in it.', description: 'folder: the folder’s path' }, { folder: scope.folder.path }));
    }
    const folderIds = await ensureFolderPaths(tx, c.id, parentId, input.files.map((f) => f.path ?? null), now, (i) => `files.${i}.path`);
    const owner = { kind: 'collection' as const, id: c.id, workspaceId: c.workspaceId };
    const targets = await registerUploads(tx, services, owner, input.files, now);
    if (targets.length > 0) {
      await tx.insert(collectionFiles).values(
        targets.map((t, i) => ({ fileId: t.id, collectionId: c.id, folderId: folderIds[i] ?? null, source: 'web' as const, addedByGuest: scope.guestId, addedByGuestEmail: scope.email })),
      );
    }
    await touchCollection(tx, c.id, now);
    return { tusEndpoint: tusEndpoint(services.config.PUBLIC_URL), files: targets, imports: [] };
  });
}
