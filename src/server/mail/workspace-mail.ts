import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
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

/**
 * Who hears about a transfer (its downloads, the reminder before expiry, a failed import, malware):
 * the member who sent it, while they are one and not disabled. A transfer an API key sent, or whose
 * sender has left, goes to the owner and admins, who manage every transfer of the workspace.
 */
export async function transferSenderAddresses(services: Pick<Services, 'db'>, t: { workspaceId: string; createdBy: string | null }): Promise<string[]> {
  const rows = await services.db
    .select({ email: users.email, userId: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, t.workspaceId), isNull(users.disabledAt), or(t.createdBy ? eq(users.id, t.createdBy) : undefined, inArray(memberships.role, ['owner', 'admin']))))
    .orderBy(asc(memberships.createdAt), asc(users.id));
  const sender = rows.find((r) => r.userId === t.createdBy);
  return sender ? [sender.email] : rows.map((r) => r.email);
}

type Message = Omit<OutgoingMessage, 'to' | 'workspaceId'>;

/** One message to each address; true when every one went out or bounced for good (nothing to retry). */
async function mailEach(services: MailServices, workspaceId: string, addresses: string[], message: Message): Promise<boolean> {
  let settled = true;
  for (const to of addresses) {
    const result = await services.mailer.send({ ...message, to, workspaceId });
    if (result.status === 'deferred') settled = false;
  }
  return settled;
}

/** Sends one message to each person of the workspace (a collection's or an upload request's news: they are the team's). */
export async function mailWorkspace(services: MailServices, workspaceId: string, message: Message): Promise<boolean> {
  return mailEach(services, workspaceId, await workspaceAddresses(services, workspaceId), message);
}

/** Sends a message about a transfer to the member who sent it (transferSenderAddresses). */
export async function mailTransferSender(services: MailServices, t: { workspaceId: string; createdBy: string | null }, message: Message): Promise<boolean> {
  return mailEach(services, t.workspaceId, await transferSenderAddresses(services, t), message);
}
