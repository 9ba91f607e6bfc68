import { asc, eq } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import type { Services } from '../services.js';
import type { OutgoingMessage } from './message.js';

/** Mail to the people of a workspace about its own things (a download, a failed import, malware found). */

type MailServices = Pick<Services, 'db' | 'mailer'>;

/** Everyone who signs in to the workspace, oldest account first. */
export async function workspaceAddresses(services: Pick<Services, 'db'>, workspaceId: string): Promise<string[]> {
  const rows = await services.db.select({ email: users.email }).from(users).where(eq(users.workspaceId, workspaceId)).orderBy(asc(users.createdAt));
  return rows.map((r) => r.email);
}

/** Sends one message to each person of the workspace; true when every one went out or bounced for good (nothing to retry). */
export async function mailWorkspace(services: MailServices, workspaceId: string, message: Omit<OutgoingMessage, 'to' | 'workspaceId'>): Promise<boolean> {
  let settled = true;
  for (const to of await workspaceAddresses(services, workspaceId)) {
    const result = await services.mailer.send({ ...message, to, workspaceId });
    if (result.status === 'deferred') settled = false;
  }
  return settled;
}
