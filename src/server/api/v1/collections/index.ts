import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerAddCollectionFiles } from './add-files.js';
import { registerCreateCollection } from './create.js';
import { registerCreateCollectionFolder } from './create-folder.js';
import { registerDeleteCollection } from './delete.js';
import { registerDeleteCollectionFiles } from './delete-files.js';
import { registerDeleteCollectionFolder } from './delete-folder.js';
import { registerGetCollectionDownloadLinks } from './download-links.js';
import { registerGetCollection } from './get.js';
import { registerInviteCollectionGuests } from './invite-guests.js';
import { registerListCollections } from './list.js';
import { registerListCollectionFiles } from './list-files.js';
import { registerListCollectionFolders } from './list-folders.js';
import { registerListCollectionGuests } from './list-guests.js';
import { registerRemoveCollectionGuest } from './remove-guest.js';
import { registerUpdateCollectionGuest } from './update-guest.js';
import { registerUpdateCollection } from './update.js';
import { registerUpdateCollectionFile } from './update-file.js';
import { registerUpdateCollectionFolder } from './update-folder.js';
import { registerCollectionTrash } from './trash.js';
import { registerCollectionReview } from './review.js';

/** The Collections resource (paid plan): named sets of files with folders, guests and a visibility. */
export function registerCollections(app: OpenAPIHono<AppEnv>) {
  registerListCollections(app);
  registerCreateCollection(app);
  registerGetCollection(app);
  registerUpdateCollection(app);
  registerDeleteCollection(app);
  // Folders: list, create, rename or move, delete.
  registerListCollectionFolders(app);
  registerCreateCollectionFolder(app);
  registerUpdateCollectionFolder(app);
  registerDeleteCollectionFolder(app);
  // Files: listed, added (uploaded through tus), renamed or moved, deleted.
  registerListCollectionFiles(app);
  registerAddCollectionFiles(app);
  registerUpdateCollectionFile(app);
  registerDeleteCollectionFiles(app);
  registerGetCollectionDownloadLinks(app);
  // The trash: what was deleted, restorable until the sweep purges it.
  registerCollectionTrash(app);
  // Review: comments by file, and a decision per file.
  registerCollectionReview(app);
  // Guests: list, invite, change what one may do, remove.
  registerListCollectionGuests(app);
  registerInviteCollectionGuests(app);
  registerUpdateCollectionGuest(app);
  registerRemoveCollectionGuest(app);
}
