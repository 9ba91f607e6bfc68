import { and, asc, eq, isNull } from 'drizzle-orm';
import { memberships, users } from '../db/schema/index.js';
import type { Services } from '../services.js';
import type { OutgoingMessage } from './message.js';

/** Mail to the people of a workspace about its own things (a download, a failed import, malware found). */

type MailServices = Pick<Services, 'db' | 'mailer'>;

/** Every member of the workspace (a disabled person aside), the earliest to join first. */
export async function workspaceAddresses(services: Pick<Services, 'db'>, workspaceId: string): Promise<string[]> {
  const rows = await services.db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), isNull(users.disabledAt)))
    .orderBy(asc(memberships.createdAt), asc(users.id));
  return rows.map((r) => r.email);
}

/** The address of the workspace's owner (null only for a workspace without one, which the schema prevents from being made). */
export async function ownerAddress(services: Pick<Services, 'db'>, workspaceId: string): Promise<string | null> {
  const [row] = await services.db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')));
  return row?.email ?? null;
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
