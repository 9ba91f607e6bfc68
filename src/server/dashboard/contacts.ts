import { ImportContactsRequestSchema, MAX_IMPORT_CONTACTS, SyncContactsResponseSchema } from '../../contract/contacts.js';
import { syncContacts } from '../contacts/contacts.js';
import { memberCreator } from '../workspaces/creators.js';
import type { DashboardSurface } from './routes.js';

/** Where the import is mounted (under /api/dashboard/contacts), for its own body limit. */
export const CONTACT_IMPORT_PATH = '/api/dashboard/contacts/import';

/** The largest body the import takes: 10,000 contacts with every field filled in stay well inside it. */
export const CONTACT_IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * /api/dashboard/contacts/import: the rows of a CSV file, checked in the browser's preview, written
 * by the very operation behind `POST /api/v1/contacts/sync` (matched by email, all or nothing, one
 * transaction), only with room for a whole address book instead of the API's 1,000 per call. The
 * contacts it creates are the importing member's.
 */
export function contactImportRoutes(surface: DashboardSurface) {
  surface.route(
    { method: 'post', path: '/import', auth: 'session', summary: 'Import an address book (a CSV file, parsed in the browser)', body: ImportContactsRequestSchema, success: { status: 200, schema: SyncContactsResponseSchema } },
    async (c, { body }) => {
      const importer = { workspaceId: c.var.user.workspaceId, creator: memberCreator(c.var.user) };
      return c.json(await syncContacts(c.var.services, importer, body.contacts, { max: MAX_IMPORT_CONTACTS }));
    },
  );
}
