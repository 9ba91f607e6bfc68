import { and, asc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Guest } from '../../contract/collections.js';
import type { Caller } from '../core/caller.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { newId, randomBase62, sha256 } from '../core/secrets.js';
import { collectionGuests, guestSignIns, type GuestRole } from '../db/schema/index.js';
import { folderOfCollection } from './folders.js';
import { renderEmail } from '../mail/html.js';
import { subjectLine, type OutgoingMessage } from '../mail/message.js';
import { mailIntl, mailLocale } from '../mail/intl.js';
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales.js';
import { contactLanguages, userLocale } from '../mail/languages.js';
import type { Services } from '../services.js';
import { issueGuestSession } from './access.js';
import { collectionUrl, lockOwnCollection, ownCollection, type CollectionRow } from './collections.js';
import { said } from '../core/sentences.js';

/**
 * A collection's guests: addresses invited to it, who sign in with a one-time link mailed to that
 * address. Managing them is the workspace's (by collection id, for the caller's workspace); signing
 * in is the visitor's, through the collection's public side. Guests are not members of the workspace
 * and see only their one collection.
 */

type GuestRow = typeof collectionGuests.$inferSelect;
type MailServices = Pick<Services, 'mailer' | 'log'>;

/** A sign-in link works this long, once. */
export const GUEST_SIGN_IN_TTL_MS = 15 * 60 * 1000;
/** Sign-in mails per address and collection in a window: enough for a lost mail, too few to flood an inbox. */
export const GUEST_SIGN_IN_MAILS_PER_WINDOW = 5;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** A guest's last visit is written at most this often, so a busy page does not write on every read. */
const LAST_VISIT_RESOLUTION_MS = 60 * 1000;

const toGuest = (row: GuestRow): Guest => ({
  id: row.id,
  email: row.email,
  role: row.role,
  uploadFolderId: row.role === 'contributor' ? row.uploadFolderId : null,
  invitedAt: row.invitedAt.toISOString(),
  lastVisitAt: row.lastVisitAt?.toISOString() ?? null,
  language: row.language,
});

/** Sends one message; a failure is logged and never fails the operation that sent it (the address stays invited, a new link can be asked for). */
async function sendQuietly(services: MailServices, message: OutgoingMessage, context: Record<string, string>) {
  try {
    const result = await services.mailer.send(message);
    if (result.status !== 'sent') services.log.warn({ ...context, tag: message.tag, status: result.status }, 'guest mail not sent');
  } catch (err) {
    services.log.error({ ...context, tag: message.tag, err }, 'guest mail failed');
  }
}

/**
 * Invites addresses to the caller's collection and mails each one an invite with the collection's
 * link. The addresses come lower-cased from the contract; duplicates are dropped, order kept. An
 * address invited before keeps its row (and its first `invitedAt`, so the list does not reshuffle)
 * and is simply mailed again. Mail goes out after the rows are committed.
 */
export async function inviteGuests(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>,
  caller: Caller,
  collectionId: string,
  emails: string[],
  grant: { role: GuestRole; uploadFolderId?: string | null | undefined } = { role: 'viewer' },
  language?: Locale,
): Promise<{ invited: string[] }> {
  const invited = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  const now = services.clock.now();
  const c = await services.db.transaction(async (tx) => {
    // The lock keeps a concurrent delete of the collection from leaving guests of nothing.
    const row = await lockOwnCollection(tx, caller, collectionId);
    const role = await checkedRole(tx, row.id, grant);
    await tx
      .insert(collectionGuests)
      .values(invited.map((email) => ({ id: newId('gu'), collectionId: row.id, email, invitedAt: now, language: language ?? null, ...role })))
      // Invited again: the role given now is theirs, and the language chosen now.
      .onConflictDoUpdate({ target: [collectionGuests.collectionId, collectionGuests.email], set: { ...role, ...(language ? { language } : {}) } });
    return row;
  });

  const link = collectionUrl(services.config.PUBLIC_URL, c.slug);
  // Without a choice: the guest's own (the page they used), their contact's, the inviter's.
  const guests = new Map(
    (await services.db.select({ email: collectionGuests.email, language: collectionGuests.language }).from(collectionGuests).where(and(eq(collectionGuests.collectionId, c.id), inArray(collectionGuests.email, invited)))).map((g) => [g.email, g.language]),
  );
  const contacts = await contactLanguages(services.db, c.workspaceId, invited);
  const inviterLocale = await userLocale(services.db, caller.userId);
  for (const to of invited) {
    const locale = mailLocale(language, guests.get(to), contacts.get(to), inviterLocale);
    const intl = mailIntl(locale);
    const values = { workspace: caller.workspaceName, title: c.title, email: to };
    const content = renderEmail({
      locale,
      heading: intl.formatMessage({ id: 'mail.guestInvited.heading', defaultMessage: '{workspace} shared “{title}” with you', description: 'workspace: the sharing workspace\'s name; title: the collection\'s' }, values),
      paragraphs: [
        ...(c.description ? [c.description] : []),
        intl.formatMessage({ id: 'mail.guestInvited.signIn', defaultMessage: 'Open the collection and sign in with this address ({email}): we will mail you a sign-in link that works once, for 15 minutes.' }, values),
        intl.formatMessage({ id: 'mail.guestInvited.private', defaultMessage: 'The collection is shared only with the people invited to it.' }),
      ],
      action: { label: intl.formatMessage({ id: 'mail.guest.open', defaultMessage: 'Open the collection' }), url: link },
    });
    await sendQuietly(
      services,
      {
        to,
        subject: subjectLine(intl.formatMessage({ id: 'mail.guestInvited.subject', defaultMessage: '{workspace} shared {title} with you' }, values)),
        text: content.text,
        html: content.html,
        tag: 'collection.guest_invited',
        workspaceId: c.workspaceId,
      },
      { collectionId: c.id },
    );
  }
  return { invited };
}

/** A role to store: a contributor's folder must be a live folder of the collection (400 naming `uploadFolderId`); a viewer has none. */
async function checkedRole(tx: Pick<Database, 'select'>, collectionId: string, grant: { role: GuestRole; uploadFolderId?: string | null | undefined }) {
  const folderId = grant.role === 'contributor' ? (grant.uploadFolderId ?? null) : null;
  if (folderId !== null && !(await folderOfCollection(tx, collectionId, folderId))) throw invalidField('body', 'uploadFolderId', said({ id: 'api.collections.noSuchFolderCollection', defaultMessage: 'no such folder in this collection' }));
  return { role: grant.role, uploadFolderId: folderId };
}

/** Changes what a guest of the caller's collection may do: view, or also contribute (anywhere, or into one folder). */
export async function updateGuest(
  services: Pick<Services, 'db'>,
  caller: Caller,
  collectionId: string,
  guestId: string,
  grant: { role: GuestRole; uploadFolderId?: string | null | undefined },
): Promise<Guest> {
  return services.db.transaction(async (tx) => {
    const c = await lockOwnCollection(tx, caller, collectionId);
    const [changed] = await tx
      .update(collectionGuests)
      .set(await checkedRole(tx, c.id, grant))
      .where(and(eq(collectionGuests.collectionId, c.id), eq(collectionGuests.id, guestId)))
      .returning();
    if (!changed) throw notFound(said({ id: 'api.collections.guestNotFound', defaultMessage: 'Guest not found' }));
    return toGuest(changed);
  });
}

/** The guests of the caller's collection, in the order they were invited (those invited together by address). */
export async function listGuests(services: Pick<Services, 'db'>, caller: Caller, collectionId: string): Promise<Guest[]> {
  const c = await ownCollection(services, caller, collectionId);
  const rows = await services.db
    .select()
    .from(collectionGuests)
    .where(eq(collectionGuests.collectionId, c.id))
    .orderBy(asc(collectionGuests.invitedAt), asc(collectionGuests.email));
  return rows.map(toGuest);
}

/**
 * Removes a guest of the caller's collection; their sign-in links go with the row (cascade), and
 * their session and download links stop working on their next request, which re-checks the row.
 */
export async function removeGuest(services: Pick<Services, 'db'>, caller: Caller, collectionId: string, guestId: string): Promise<{ deleted: true }> {
  const c = await ownCollection(services, caller, collectionId);
  const [removed] = await services.db
    .delete(collectionGuests)
    .where(and(eq(collectionGuests.collectionId, c.id), eq(collectionGuests.id, guestId)))
    .returning({ id: collectionGuests.id });
  if (!removed) throw notFound(said({ id: 'api.collections.guestNotFound', defaultMessage: 'Guest not found' }));
  return { deleted: true };
}

/** A collection opened through its secret link, with the name of the workspace that shares it. */
export interface SharedCollection {
  c: CollectionRow;
  workspaceName: string;
}

/**
 * Mails a one-time sign-in link to `email` if it is a guest of the collection. The caller answers
 * the same whether or not it is, so the form cannot be used to learn who was invited; past the
 * per-address limit nothing more is sent, equally silently. The link leads back to `pageUrl`, the
 * page the guest asked from (`/c/<slug>`, or `/<slug>` on the workspace's own domain), where the
 * guest cookie it is traded for will be sent.
 */
export async function requestGuestSignIn(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log' | 'rateLimits'>,
  shared: SharedCollection,
  email: string,
  pageUrl: string = collectionUrl(services.config.PUBLIC_URL, shared.c.slug),
  /** The language of the page the guest asked from: the mail's, and their mail's from now on. */
  locale: Locale = DEFAULT_LOCALE,
) {
  const { c, workspaceName } = shared;
  const address = email.trim().toLowerCase();
  const now = services.clock.now();
  const { count } = await services.rateLimits.hit(`guest-sign-in:${c.id}:${address}`, SIGN_IN_WINDOW_MS, now.getTime());
  if (count > GUEST_SIGN_IN_MAILS_PER_WINDOW) return;

  const [guest] = await services.db
    .update(collectionGuests)
    .set({ language: locale })
    .where(and(eq(collectionGuests.collectionId, c.id), eq(collectionGuests.email, address)))
    .returning({ id: collectionGuests.id });
  if (!guest) return;

  const token = randomBase62(32);
  await services.db.insert(guestSignIns).values({ tokenHash: sha256(token), guestId: guest.id, expiresAt: new Date(now.getTime() + GUEST_SIGN_IN_TTL_MS) });
  const intl = mailIntl(locale);
  const values = { workspace: workspaceName, title: c.title };
  const content = renderEmail({
    locale,
    heading: intl.formatMessage({ id: 'mail.guestSignIn.heading', defaultMessage: 'Sign in to “{title}”' }, values),
    paragraphs: [
      intl.formatMessage(
        { id: 'mail.guestSignIn.asked', defaultMessage: 'Someone, hopefully you, asked to open “{title}”, shared with you by {workspace}. The link below works once, for 15 minutes.' },
        values,
      ),
      intl.formatMessage({ id: 'mail.guestSignIn.notYou', defaultMessage: 'If it was not you, ignore this mail: nobody can open the collection without it.' }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.guest.open', defaultMessage: 'Open the collection' }), url: `${pageUrl}?guest=${token}` },
  });
  await sendQuietly(
    services,
    {
      to: address,
      subject: subjectLine(intl.formatMessage({ id: 'mail.guestSignIn.subject', defaultMessage: 'Sign in to {title}' }, values)),
      text: content.text,
      html: content.html,
      tag: 'collection.guest_sign_in',
      workspaceId: c.workspaceId,
    },
    { collectionId: c.id, guestId: guest.id },
  );
}

/**
 * Trades a sign-in link for a guest session of this collection. The link is claimed in one
 * statement (used, unexpired, of a guest of this collection), so it works once even when opened
 * twice at the same moment. Anything else is 410 `link_unavailable` (`expired`): an unknown, used
 * and expired link look the same.
 */
export async function redeemGuestSignIn(services: Pick<Services, 'db' | 'clock' | 'cursorKey'>, c: Pick<CollectionRow, 'id'>, token: string) {
  const now = services.clock.now();
  const guest = await services.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(guestSignIns)
      .set({ usedAt: now })
      .where(
        and(
          eq(guestSignIns.tokenHash, sha256(token)),
          isNull(guestSignIns.usedAt),
          gt(guestSignIns.expiresAt, now),
          inArray(guestSignIns.guestId, tx.select({ id: collectionGuests.id }).from(collectionGuests).where(eq(collectionGuests.collectionId, c.id))),
        ),
      )
      .returning({ guestId: guestSignIns.guestId });
    if (!claimed) return null;
    const [row] = await tx.update(collectionGuests).set({ lastVisitAt: now }).where(eq(collectionGuests.id, claimed.guestId)).returning();
    return row ?? null;
  });
  if (!guest) {
    throw new ApiError('link_unavailable', said({ id: 'api.collections.signLinkExpiredUsed', defaultMessage: 'This sign-in link has expired or was used already. Ask for a new one with your address.' }), { reason: 'expired' });
  }
  const session = issueGuestSession(services, { id: guest.id, collectionId: guest.collectionId }, now);
  return { email: guest.email, session };
}

/** A signed-in guest's address, noting their visit (written at most once a minute). Null when the guest is gone. */
export async function recordGuestVisit(services: Pick<Services, 'db' | 'clock'>, guestId: string): Promise<string | null> {
  const now = services.clock.now();
  await services.db
    .update(collectionGuests)
    .set({ lastVisitAt: now })
    .where(
      and(
        eq(collectionGuests.id, guestId),
        or(isNull(collectionGuests.lastVisitAt), lt(collectionGuests.lastVisitAt, new Date(now.getTime() - LAST_VISIT_RESOLUTION_MS))),
      ),
    );
  const [guest] = await services.db.select({ email: collectionGuests.email }).from(collectionGuests).where(eq(collectionGuests.id, guestId));
  return guest?.email ?? null;
}
