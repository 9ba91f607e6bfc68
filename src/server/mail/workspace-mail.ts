import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Locale } from '../../contract/locales.js';
import { memberships, users } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { mailIntl, mailLocale, type MailIntl } from './intl.js';
import type { OutgoingMessage } from './message.js';

/**
 * Mail to the people of a workspace about its own things (a download, a failed import, malware found), each in
 * their own language (Settings, `users.locale`; none chosen: English).
 */

type MailServices = Pick<Services, 'db' | 'mailer'>;

/** A person to mail: their address and the language they chose (null for none). */
export interface Addressee {
  email: string;
  locale: string | null;
}

/** Every member of the workspace (a disabled person aside), the earliest to join first. */
export async function workspaceAddresses(services: Pick<Services, 'db'>, workspaceId: string): Promise<Addressee[]> {
  return services.db
    .select({ email: users.email, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), isNull(users.disabledAt)))
    .orderBy(asc(memberships.createdAt), asc(users.id));
}

/** The workspace's owner (null only for a workspace without one, which the schema prevents from being made). */
export async function ownerAddress(services: Pick<Services, 'db'>, workspaceId: string): Promise<Addressee | null> {
  const [row] = await services.db
    .select({ email: users.email, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')));
  return row ?? null;
}

/**
 * Who hears about a transfer (its downloads, the reminder before expiry, a failed import, malware):
 * the member who sent it, while they are one and not disabled. A transfer an API key sent, or whose
 * sender has left, goes to the owner and admins, who manage every transfer of the workspace.
 */
export async function transferSenderAddresses(services: Pick<Services, 'db'>, t: { workspaceId: string; createdBy: string | null }): Promise<Addressee[]> {
  const rows = await services.db
    .select({ email: users.email, locale: users.locale, userId: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, t.workspaceId), isNull(users.disabledAt), or(t.createdBy ? eq(users.id, t.createdBy) : undefined, inArray(memberships.role, ['owner', 'admin']))))
    .orderBy(asc(memberships.createdAt), asc(users.id));
  const sender = rows.find((r) => r.userId === t.createdBy);
  return (sender ? [sender] : rows).map(({ email, locale }) => ({ email, locale }));
}

type Message = Omit<OutgoingMessage, 'to' | 'workspaceId'>;

/** Writes a mail in a language: its messages from `intl`, and `locale` for renderEmail. */
export type MailWriter = (intl: MailIntl, locale: Locale) => Message;

/**
 * One message to each addressee, in their language (written once per language among them); true when every one went
 * out or bounced for good (nothing to retry). `workspaceId` files it in that workspace's outbox (null: in none, as for a
 * workspace that is gone).
 */
export async function mailEach(services: MailServices, workspaceId: string | null, addressees: Addressee[], write: MailWriter): Promise<boolean> {
  const written = new Map<Locale, Message>();
  let settled = true;
  for (const { email: to, locale: chosen } of addressees) {
    const locale = mailLocale(chosen);
    let message = written.get(locale);
    if (!message) {
      message = write(mailIntl(locale), locale);
      written.set(locale, message);
    }
    const result = await services.mailer.send({ ...message, to, workspaceId });
    if (result.status === 'deferred') settled = false;
  }
  return settled;
}

/** Sends one message to each person of the workspace (a collection's or an upload request's news: they are the team's). */
export async function mailWorkspace(services: MailServices, workspaceId: string, write: MailWriter): Promise<boolean> {
  return mailEach(services, workspaceId, await workspaceAddresses(services, workspaceId), write);
}

/** Sends a message about a transfer to the member who sent it (transferSenderAddresses). */
export async function mailTransferSender(services: MailServices, t: { workspaceId: string; createdBy: string | null }, write: MailWriter): Promise<boolean> {
  return mailEach(services, t.workspaceId, await transferSenderAddresses(services, t), write);
}

