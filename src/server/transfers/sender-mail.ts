import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { expiresWithinADay } from './end.js';
import { downloadSessions, downloads, transferRecipients, transfers, workspaces } from '../db/schema/index.js';
import { renderEmail } from '../mail/html.js';
import type { MailIntl } from '../mail/intl.js';
import { subjectLine } from '../mail/message.js';
import { mailTransferSender } from '../mail/workspace-mail.js';
import type { Services } from '../services.js';

/**
 * Mail to the member who sent a transfer (the owner and admins for a key's) about it: a visit downloaded one (at most one
 * mail per visit), and "expires tomorrow, nobody downloaded it". Each is switched per transfer
 * (`notifications` in the API), with defaults in the workspace's settings. Each is written in its reader's own language.
 */

type MailServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

const DAY = 86_400_000;
/** A visit whose mail could not go out is retried by the sweep for this long, then given up. */
const DOWNLOAD_MAIL_RETRY_WINDOW = DAY;

/** Names in a sentence (recipients' addresses, file names) as the language lists them: "a, b, c" in English. */
const listOf = (intl: MailIntl, items: string[]) => intl.formatList(items, { type: 'unit', style: 'short' });
const dashboardLink = (publicUrl: string, transferId: string) => `${publicUrl.replace(/\/$/, '')}/transfers/${encodeURIComponent(transferId)}`;

/**
 * Mails the sender that a visit downloaded their transfer, once: the visit is claimed by setting
 * `senderNotifiedAt`, and released again only when the mail server asked to try later.
 */
export async function notifyDownload(services: MailServices, sessionId: string): Promise<boolean> {
  const { db, clock, config } = services;
  const now = clock.now();
  const [claimed] = await db
    .update(downloadSessions)
    .set({ senderNotifiedAt: now })
    .where(and(eq(downloadSessions.id, sessionId), isNotNull(downloadSessions.countedAt), isNull(downloadSessions.senderNotifiedAt)))
    .returning();
  if (!claimed) return false;
  const [row] = await db
    .select({ t: transfers, workspaceName: workspaces.name })
    .from(transfers)
    .innerJoin(workspaces, eq(workspaces.id, transfers.workspaceId))
    .where(eq(transfers.id, claimed.transferId));
  if (!row || !row.t.notifyDownloads || row.t.status !== 'active') return false;
  const { t } = row;
  const [recipient] = claimed.recipientId
    ? await db.select({ email: transferRecipients.email }).from(transferRecipients).where(eq(transferRecipients.id, claimed.recipientId))
    : [];
  const fetched = await db
    .select({ fileName: downloads.fileName })
    .from(downloads)
    .where(eq(downloads.sessionId, claimed.id))
    .orderBy(asc(downloads.createdAt));
  const zip = fetched.some((d) => d.fileName === null) || fetched.length === 0;
  const fileNames = fetched.map((d) => d.fileName ?? '');
  const url = dashboardLink(config.PUBLIC_URL, t.id);
  const settled = await mailTransferSender(services, t, (intl, locale) => {
    const values = { title: t.title ?? '', recipient: recipient?.email ?? '', count: t.downloadCount, max: t.maxDownloads ?? 0 };
    const files = listOf(intl, fileNames);
    const started = recipient
      ? zip
        ? intl.formatMessage({ id: 'mail.transferDownloaded.recipientZip', defaultMessage: '{recipient} started downloading all files as a zip.', description: 'recipient: the address of the transfer\'s recipient' }, values)
        : intl.formatMessage({ id: 'mail.transferDownloaded.recipientFiles', defaultMessage: '{recipient} started downloading {files}.', description: 'files: the names of the files, as a list' }, { ...values, files })
      : zip
        ? intl.formatMessage({ id: 'mail.transferDownloaded.someoneZip', defaultMessage: 'Someone with the link started downloading all files as a zip.' })
        : intl.formatMessage({ id: 'mail.transferDownloaded.someoneFiles', defaultMessage: 'Someone with the link started downloading {files}.', description: 'files: the names of the files, as a list' }, { files });
    const content = renderEmail({
      locale,
      heading: t.title
        ? intl.formatMessage({ id: 'mail.transferDownloaded.heading', defaultMessage: '“{title}” was downloaded', description: 'title: what the sender called the transfer' }, values)
        : intl.formatMessage({ id: 'mail.transferDownloaded.headingUntitled', defaultMessage: 'your transfer was downloaded', description: 'Heading of the mail to a transfer\'s sender about a transfer without a title (lower case in English, as it is)' }),
      paragraphs: [
        started,
        t.maxDownloads
          ? intl.formatMessage({ id: 'mail.transferDownloaded.countOfMax', defaultMessage: 'It has been downloaded {count, plural, one {# time} other {# times}} of the {max, number} allowed.', description: 'max: the most downloads the sender allows' }, values)
          : intl.formatMessage({ id: 'mail.transferDownloaded.count', defaultMessage: 'It has been downloaded {count, plural, one {# time} other {# times}}.' }, values),
        intl.formatMessage({
          id: 'mail.transferDownloaded.why',
          defaultMessage: 'You get this mail once per visit because download notifications are on for this transfer. Turn them off on the transfer\'s page, or for new transfers in Settings.',
        }),
      ],
      action: { label: intl.formatMessage({ id: 'mail.transferDownloaded.action', defaultMessage: 'See who downloaded it' }), url },
    });
    return {
      subject: subjectLine(
        t.title !== null
          ? intl.formatMessage({ id: 'mail.transferDownloaded.subject', defaultMessage: 'Downloaded: {title}' }, values)
          : intl.formatMessage({ id: 'mail.transferDownloaded.subjectUntitled', defaultMessage: 'Downloaded: your transfer' }),
      ),
      text: content.text,
      html: content.html,
      tag: 'transfer.downloaded',
    };
  });
  if (!settled) {
    await db.update(downloadSessions).set({ senderNotifiedAt: null }).where(eq(downloadSessions.id, claimed.id));
    services.log.warn({ transferId: t.id, sessionId: claimed.id }, 'download notification deferred');
  }
  return settled;
}

/** Visits counted lately whose mail has not gone out (a crash, or a mail server that said "later"). */
export async function retryDownloadNotifications(services: MailServices): Promise<number> {
  const since = new Date(services.clock.now().getTime() - DOWNLOAD_MAIL_RETRY_WINDOW);
  const due = await services.db
    .select({ id: downloadSessions.id })
    .from(downloadSessions)
    .innerJoin(transfers, eq(transfers.id, downloadSessions.transferId))
    .where(and(isNull(downloadSessions.senderNotifiedAt), gt(downloadSessions.countedAt, since), eq(transfers.notifyDownloads, true)));
  let sent = 0;
  for (const { id } of due) if (await notifyDownload(services, id)) sent += 1;
  return sent;
}

/**
 * A day before a sent transfer expires, if nobody has downloaded it: one mail to its sender, so
 * the sender can nudge the recipients or extend the link. Claimed row by row, so two workers send once.
 */
export async function remindUnseenBeforeExpiry(services: MailServices): Promise<number> {
  const { db, clock, config } = services;
  const now = clock.now();
  const due = await db
    .update(transfers)
    .set({ expiryReminderAt: now })
    .where(and(expiresWithinADay(transfers.expiryReminderAt, now), eq(transfers.notifyBeforeExpiry, true), eq(transfers.downloadCount, 0)))
    .returning();
  for (const t of due) {
    const recipients = await db.select({ email: transferRecipients.email }).from(transferRecipients).where(eq(transferRecipients.transferId, t.id));
    const settled = await mailTransferSender(services, t, (intl, locale) => {
      const values = { title: t.title ?? '', recipients: listOf(intl, recipients.map((r) => r.email)) };
      const content = renderEmail({
        locale,
        heading: t.title
          ? intl.formatMessage({ id: 'mail.transferExpiring.heading', defaultMessage: '“{title}” expires tomorrow, and nobody has downloaded it', description: 'title: what the sender called the transfer' }, values)
          : intl.formatMessage({ id: 'mail.transferExpiring.headingUntitled', defaultMessage: 'your transfer expires tomorrow, and nobody has downloaded it', description: 'Heading about a transfer without a title (lower case in English, as it is)' }),
        paragraphs: [
          recipients.length > 0
            ? intl.formatMessage({ id: 'mail.transferExpiring.sentTo', defaultMessage: 'It was sent to {recipients}. You may want to remind them.', description: 'recipients: their addresses, as a list' }, values)
            : intl.formatMessage({ id: 'mail.transferExpiring.noRecipients', defaultMessage: 'Nobody has used its link yet. You may want to share it again.' }),
          intl.formatMessage({
            id: 'mail.transferExpiring.why',
            defaultMessage: 'You get this mail because expiry reminders are on for this transfer. Turn them off on the transfer\'s page, or for new transfers in Settings.',
          }),
        ],
        action: { label: intl.formatMessage({ id: 'mail.transfer.open', defaultMessage: 'Open the transfer' }), url: dashboardLink(config.PUBLIC_URL, t.id) },
      });
      return {
        subject: subjectLine(
          t.title !== null
            ? intl.formatMessage({ id: 'mail.transferExpiring.subject', defaultMessage: 'Expires tomorrow, not downloaded yet: {title}' }, values)
            : intl.formatMessage({ id: 'mail.transferExpiring.subjectUntitled', defaultMessage: 'Expires tomorrow, not downloaded yet: your transfer' }),
        ),
        text: content.text,
        html: content.html,
        tag: 'transfer.expiry-reminder',
      };
    });
    // Asked to try later: release the claim so the next sweep tries again (while it has not expired).
    if (!settled) await db.update(transfers).set({ expiryReminderAt: null }).where(eq(transfers.id, t.id));
  }
  return due.length;
}

/**
 * A URL import of a transfer failed for good: one mail to its sender naming the file and why.
 * Sent once per file (the caller moved it to `failed` with a conditional update).
 */
export async function notifyFailedImport(services: MailServices, file: { ownerId: string; name: string; error: string | null; importUrl: string | null }) {
  const { db, config } = services;
  const [t] = await db.select().from(transfers).where(eq(transfers.id, file.ownerId));
  if (!t) return;
  await mailTransferSender(services, t, (intl, locale) => {
    const values = {
      title: t.title ?? '',
      file: file.name,
      url: file.importUrl ?? '',
      // The importer's reason is in English (it is also the API's), else the mail says the import failed.
      error: file.error ?? intl.formatMessage({ id: 'mail.importFailed.failed', defaultMessage: 'The import failed.' }),
    };
    const content = renderEmail({
      locale,
      heading: t.title
        ? intl.formatMessage({ id: 'mail.importFailed.heading', defaultMessage: 'A file of “{title}” could not be imported', description: 'title: what the sender called the transfer' }, values)
        : intl.formatMessage({ id: 'mail.importFailed.headingUntitled', defaultMessage: 'A file of your transfer could not be imported' }),
      paragraphs: [
        file.importUrl !== null
          ? intl.formatMessage({ id: 'mail.importFailed.from', defaultMessage: '“{file}” was to be fetched from {url}. {error}', description: 'file: the file\'s name; url: where it was to come from; error: why it failed (in English, from the server), or mail.importFailed.failed' }, values)
          : intl.formatMessage({ id: 'mail.importFailed.fromUnknown', defaultMessage: '“{file}” was to be fetched from a URL. {error}', description: 'error: why it failed (in English, from the server), or mail.importFailed.failed' }, values),
        t.finalizedAt
          ? intl.formatMessage({ id: 'mail.importFailed.sent', defaultMessage: 'The transfer went out with the files that arrived; this one is listed as failed on its page.' })
          : intl.formatMessage({ id: 'mail.importFailed.draft', defaultMessage: 'The transfer is still a draft: remove the file or add it again before sending.' }),
      ],
      action: { label: intl.formatMessage({ id: 'mail.transfer.open', defaultMessage: 'Open the transfer' }), url: dashboardLink(config.PUBLIC_URL, t.id) },
    });
    return {
      subject: subjectLine(intl.formatMessage({ id: 'mail.importFailed.subject', defaultMessage: 'Import failed: {file}', description: 'file: the file\'s name' }, values)),
      text: content.text,
      html: content.html,
      tag: 'transfer.import-failed',
    };
  });
}

/**
 * The virus scan found malware in a file of a transfer: one mail to its sender naming the file
 * and what was found. A sent transfer is now `blocked`: sent once (the caller ended the transfer
 * with a conditional update). A `draft` goes on: one mail per infected file (its verdict is recorded
 * once), asking the sender to remove it, since the draft cannot be sent while it is there. The
 * caller says which, as it decided under the transfer's lock.
 */
export async function notifyInfectedTransfer(
  services: MailServices,
  file: { ownerId: string; name: string },
  signature: string,
  outcome: 'blocked' | 'draft',
) {
  const { db, config } = services;
  const [t] = await db.select().from(transfers).where(eq(transfers.id, file.ownerId));
  if (!t) return;
  const draft = outcome === 'draft';
  await mailTransferSender(services, t, (intl, locale) => {
    const values = { title: t.title ?? '', file: file.name, signature };
    const content = renderEmail({
      locale,
      heading: draft
        ? t.title
          ? intl.formatMessage({ id: 'mail.transferInfected.draftHeading', defaultMessage: 'A file of your draft “{title}” contained malware', description: 'title: what the sender called the transfer' }, values)
          : intl.formatMessage({ id: 'mail.transferInfected.draftHeadingUntitled', defaultMessage: 'A file of your draft contained malware' })
        : t.title
          ? intl.formatMessage({ id: 'mail.transferInfected.blockedHeading', defaultMessage: '“{title}” was blocked: a file contained malware', description: 'title: what the sender called the transfer' }, values)
          : intl.formatMessage({ id: 'mail.transferInfected.blockedHeadingUntitled', defaultMessage: 'Your transfer was blocked: a file contained malware' }),
      paragraphs: [
        intl.formatMessage({ id: 'mail.transferInfected.found', defaultMessage: 'The virus scan found {signature} in “{file}”.', description: 'signature: the name of the malware, as the scanner calls it; file: the file\'s name' }, values),
        draft
          ? intl.formatMessage({
              id: 'mail.transferInfected.draft',
              defaultMessage: 'The file was deleted, but it is still listed in the draft, marked infected: remove it from the draft on the transfer\'s page before you send it. Nothing was sent and nobody was emailed.',
            })
          : intl.formatMessage({
              id: 'mail.transferInfected.blocked',
              defaultMessage: 'Its link no longer works: recipients who open it are told it was blocked. Every file of the transfer was deleted.',
            }),
        intl.formatMessage({ id: 'mail.transferInfected.advice', defaultMessage: 'If you did not expect this, check the computer the file came from with an up-to-date virus scanner.' }),
      ],
      action: { label: intl.formatMessage({ id: 'mail.transfer.open', defaultMessage: 'Open the transfer' }), url: dashboardLink(config.PUBLIC_URL, t.id) },
    });
    return {
      subject: subjectLine(
        draft
          ? intl.formatMessage({ id: 'mail.transferInfected.draftSubject', defaultMessage: 'Malware found in {file}: remove it from your draft', description: 'file: the file\'s name' }, values)
          : intl.formatMessage({ id: 'mail.transferInfected.blockedSubject', defaultMessage: 'Transfer blocked: malware found in {file}', description: 'file: the file\'s name' }, values),
      ),
      text: content.text,
      html: content.html,
      tag: 'transfer.infected',
    };
  });
}
