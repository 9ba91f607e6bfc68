import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerListCollections } from './list.js';
import { registerCreateCollection } from './create.js';
import { registerGetCollection } from './get.js';
import { registerUpdateCollection } from './update.js';
import { registerDeleteCollection } from './delete.js';
import { registerFolders } from './folders.js';
import { registerCollectionFiles } from './files.js';
import { registerGetCollectionDownloadLinks } from './download-links.js';
import { registerGuests } from './guests.js';

/** The Collections resource (paid plan): named sets of files with folders, guests and a visibility. */
export function registerCollections(app: OpenAPIHono<AppEnv>) {
  registerListCollections(app);
  registerCreateCollection(app);
  registerGetCollection(app);
  registerUpdateCollection(app);
  registerDeleteCollection(app);
  registerFolders(app);
  registerCollectionFiles(app);
  registerGetCollectionDownloadLinks(app);
  registerGuests(app);
}
