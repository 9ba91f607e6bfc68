import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerDeleteContact } from './delete.js';
import { registerGetContact } from './get.js';
import { registerListContacts } from './list.js';
import { registerCreateContact } from './post.js';
import { registerReplaceContact } from './put.js';
import { registerSyncContacts } from './sync.js';

/** The Contacts resource: the workspace address book. */
export function registerContacts(app: OpenAPIHono<AppEnv>) {
  registerCreateContact(app);
  registerSyncContacts(app);
  registerListContacts(app);
  registerGetContact(app);
  registerReplaceContact(app);
  registerDeleteContact(app);
}
