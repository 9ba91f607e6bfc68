import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { expiresWithinADay } from './end.js';
import { downloadSessions, downloads, transferRecipients, transfers, workspaces } from '../db/schema/index.js';
import { renderEmail } from '../mail/html.js';
import { mailTransferSender } from '../mail/workspace-mail.js';
import type { Services } from '../services.js';

/**
 * Mail to the member who sent a transfer (the owner and admins for a key's) about it: a visit downloaded one (at most one
 * mail per visit), and "expires tomorrow, nobody downloaded it". Each is switched per transfer
 * (`notifications` in the API), with defaults in the workspace's settings.
 */

type MailServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

const DAY = 86_400_000;
/** A visit whose mail could not go out is retried by the sweep for this long, then given up. */
const DOWNLOAD_MAIL_RETRY_WINDOW = DAY;

const transferName = (t: { title: string | null }) => (t.title ? `“${t.title}”` : 'your transfer');
const subjectLine = (s: string) => s.slice(0, 200).replace(/[\r\n]+/g, ' ');
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
  const who = recipient?.email ?? 'Someone with the link';
  const what = fetched.some((d) => d.fileName === null) || fetched.length === 0 ? 'all files as a zip' : fetched.map((d) => d.fileName).join(', ');
  const content = renderEmail({
    heading: `${transferName(t)} was downloaded`,
    paragraphs: [
      `${who} started downloading ${what}.`,
      `It has been downloaded ${t.downloadCount} ${t.downloadCount === 1 ? 'time' : 'times'}${t.maxDownloads ? ` of the ${t.maxDownloads} allowed` : ''}.`,
      'You get this mail once per visit because download notifications are on for this transfer. Turn them off on the transfer\'s page, or for new transfers in Settings.',
    ],
    action: { label: 'See who downloaded it', url: dashboardLink(config.PUBLIC_URL, t.id) },
  });
  const settled = await mailTransferSender(services, t, {
    subject: subjectLine(`Downloaded: ${t.title ?? 'your transfer'}`),
    text: content.text,
    html: content.html,
    tag: 'transfer.downloaded',
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
    const content = renderEmail({
      heading: `${transferName(t)} expires tomorrow, and nobody has downloaded it`,
      paragraphs: [
        recipients.length > 0
          ? `It was sent to ${recipients.map((r) => r.email).join(', ')}. You may want to remind them.`
          : 'Nobody has used its link yet. You may want to share it again.',
        'You get this mail because expiry reminders are on for this transfer. Turn them off on the transfer\'s page, or for new transfers in Settings.',
      ],
      action: { label: 'Open the transfer', url: dashboardLink(config.PUBLIC_URL, t.id) },
    });
    const settled = await mailTransferSender(services, t, {
      subject: subjectLine(`Expires tomorrow, not downloaded yet: ${t.title ?? 'your transfer'}`),
      text: content.text,
      html: content.html,
      tag: 'transfer.expiry-reminder',
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
  const content = renderEmail({
    heading: `A file of ${transferName(t)} could not be imported`,
    paragraphs: [
      `“${file.name}” was to be fetched from ${file.importUrl ?? 'a URL'}. ${file.error ?? 'The import failed.'}`,
      t.finalizedAt
        ? 'The transfer went out with the files that arrived; this one is listed as failed on its page.'
        : 'The transfer is still a draft: remove the file or add it again before sending.',
    ],
    action: { label: 'Open the transfer', url: dashboardLink(config.PUBLIC_URL, t.id) },
  });
  await mailTransferSender(services, t, {
    subject: subjectLine(`Import failed: ${file.name}`),
    text: content.text,
    html: content.html,
    tag: 'transfer.import-failed',
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
  const content = renderEmail({
    heading: draft
      ? `A file of your draft ${t.title ? `“${t.title}” ` : ''}contained malware`
      : `${transferName(t).replace(/^y/, 'Y')} was blocked: a file contained malware`,
    paragraphs: [
      `The virus scan found ${signature} in “${file.name}”.`,
      draft
        ? 'The file was deleted, but it is still listed in the draft, marked infected: remove it from the draft on the transfer\'s page before you send it. Nothing was sent and nobody was emailed.'
        : 'Its link no longer works: recipients who open it are told it was blocked. Every file of the transfer was deleted.',
      'If you did not expect this, check the computer the file came from with an up-to-date virus scanner.',
    ],
    action: { label: 'Open the transfer', url: dashboardLink(config.PUBLIC_URL, t.id) },
  });
  await mailTransferSender(services, t, {
    subject: subjectLine(draft ? `Malware found in ${file.name}: remove it from your draft` : `Transfer blocked: malware found in ${file.name}`),
    text: content.text,
    html: content.html,
    tag: 'transfer.infected',
  });
}
