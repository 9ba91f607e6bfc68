import { callerActor, recordActivity, transferSubject } from '../activity/activity.js';
import { and, asc, eq, inArray, isNotNull, isNull, ne, notExists, sql } from 'drizzle-orm';
import { formatBytes } from '../../contract/units.js';
import { createHmac } from 'node:crypto';
import { sha256 } from '../core/secrets.js';
import { contactLanguages } from '../mail/languages.js';
import { files as storedFiles, transferRecipients, transfers, users, workspaces } from '../db/schema/index.js';
import { filesOfTransfer } from './files.js';
import type { Caller } from '../core/caller.js';
import { ApiError } from '../core/errors.js';
import { renderEmail } from '../mail/html.js';
import type { Locale } from '../../contract/locales.js';
import { formatMailDate, mailIntl, mailLocale, type MailIntl } from '../mail/intl.js';
import { subjectLine } from '../mail/message.js';
import type { Services } from '../services.js';
import { emitReady, markReadyIfComplete, recipientEmails, transferUrl } from './lifecycle.js';
import { loadTransfer, lockOwnTransfer, type TransferRow } from './serialize.js';
import { creatorKnownTo } from '../workspaces/creators.js';
import { said } from '../core/sentences.js';

/**
 * Sends a draft: the link goes live and recipients are emailed once. A second finalize changes
 * nothing and emails nobody. Files still being uploaded refuse it. Files still arriving by URL
 * import do not: the sender's request is recorded (`finalized_at`) and the transfer goes out when the
 * last one lands (`ready_at`, the spec's `finalizedAt`); until then its link says the files are
 * still arriving and nobody is mailed.
 */
export async function finalizeTransfer(services: Services, caller: Caller, transferId: string, input: { e2eeMeta?: string }) {
  const { db, clock, config } = services;
  const now = clock.now();
  const sent = await db.transaction(async (tx) => {
    const t = await lockOwnTransfer(tx, caller, transferId);
    if (t.finalizedAt) return { transfer: t, newlySent: false, wentOut: false, recipients: null, files: null };
    if (t.status !== 'active' || t.expiresAt <= now) {
      throw new ApiError('conflict', said({ id: 'api.transfers.transferNoLongerActive', defaultMessage: 'The transfer is no longer active' }), { reason: 'transfer_inactive', status: t.status });
    }
    const files = await filesOfTransfer(tx, t.id);
    if (files.length === 0) throw new ApiError('conflict', said({ id: 'api.transfers.transferNoFiles', defaultMessage: 'The transfer has no files' }), { reason: 'no_files' });
    // Checked under the transfer's lock, which the scanner's verdict on a draft's file also takes (file-owner.ts).
    const infected = files.filter((f) => f.scanResult === 'infected');
    if (infected.length > 0) throw filesInfected(infected);
    const pending = files.filter((f) => f.state === 'uploading' || f.state === 'failed').map((f) => f.id);
    if (pending.length > 0) {
      throw new ApiError('conflict', said({ id: 'api.transfers.someFilesFinishedUploading', defaultMessage: 'Some files have not finished uploading' }), { reason: 'uploads_incomplete', pendingFileIds: pending });
    }
    if (input.e2eeMeta !== undefined && !t.e2ee) {
      throw new ApiError('invalid_request', said({ id: 'api.transfers.e2eemetaOnlyEndEnd', defaultMessage: 'e2eeMeta is only for end-to-end encrypted transfers' }), {
        location: 'body',
        fields: [{ path: 'e2eeMeta', message: 'only for e2ee transfers' }],
      });
    }
    if (t.e2ee) {
      // Without them nobody could open it: the recipient page names files and checks the manifest from these.
      if (!(input.e2eeMeta ?? t.e2eeMeta)) {
        throw new ApiError('invalid_request', said({ id: 'api.transfers.endEndEncryptedTransfer', defaultMessage: 'An end-to-end encrypted transfer is sent with its sealed e2eeMeta' }), {
          location: 'body',
          fields: [{ path: 'e2eeMeta', message: 'required for e2ee transfers' }],
        });
      }
      const unsealed = files.filter((f) => !f.sealedMeta).map((f) => f.id);
      if (unsealed.length > 0) {
        throw new ApiError('conflict', said({ id: 'api.transfers.someFilesNoSealed', defaultMessage: 'Some files have no sealed metadata yet' }), { reason: 'files_unsealed', unsealedFileIds: unsealed });
      }
    }
    const recipients = await recipientEmails(tx, t.id);
    if (recipients.length > 0 && !caller.canEmail) {
      throw new ApiError('insufficient_scope', said({ id: 'api.transfers.emailingRecipientsNeedsTransfers', defaultMessage: 'Emailing recipients needs the transfers:send permission' }), {
        required: 'transfers:send',
        granted: caller.scopes,
      });
    }
    // With no URL import still running it goes out now, in this transaction (transfer.ready with it);
    // otherwise when the last one lands (whenImportsSettle).
    const goesOutNow = !files.some((f) => f.state === 'importing');
    const [updated] = await tx
      .update(transfers)
      .set({ finalizedAt: now, e2eeMeta: input.e2eeMeta ?? t.e2eeMeta, ...(goesOutNow ? { readyAt: now } : {}) })
      .where(eq(transfers.id, t.id))
      .returning();
    if (goesOutNow) await emitReady(tx, services, updated!, { fileCount: files.length, recipients });
    await recordActivity(tx, caller.workspaceId, now, {
      kind: 'transfer.sent',
      actor: callerActor(caller),
      subject: transferSubject(t),
      detail: { files: files.length, recipients: recipients.length, encrypted: t.e2ee },
    });
    return { transfer: updated!, newlySent: true, wentOut: goesOutNow, recipients, files };
  });

  // Recipients are fixed once it is sent: with none, there is nobody to mail or to read again.
  if (sent.wentOut && sent.recipients?.length) await notifyRecipients(services, sent.transfer.id);
  const sentBy = creatorKnownTo(caller, sent.transfer);
  if (!sent.newlySent || sent.wentOut) return loadTransfer(db, config.PUBLIC_URL, sent.transfer, { recipients: sent.recipients, files: sent.files, sentBy });
  // An import may have landed meanwhile: then it goes out now, and the answer says so.
  await whenImportsSettle(services, sent.transfer.id);
  const [fresh] = await db.select().from(transfers).where(eq(transfers.id, sent.transfer.id));
  return loadTransfer(db, config.PUBLIC_URL, fresh!, { sentBy });
}

/** The refusal to send a draft holding files the virus scan found infected: it names them, for the sender to remove. */
function filesInfected(infected: { id: string; name: string }[]) {
  const names = infected.map((f) => `“${f.name}”`).join(', ');
  const one = infected.length === 1;
  return new ApiError(
    'conflict',
    one
      ? said({ id: 'api.transfers.fileInfected', defaultMessage: '{names} contains malware and cannot be sent: remove it from the transfer, then send it.', description: 'names: the file’s name in quotes' }, { names })
      : said({ id: 'api.transfers.filesInfected', defaultMessage: '{names} contain malware and cannot be sent: remove them from the transfer, then send it.', description: 'names: the files’ names in quotes, comma-separated' }, { names }),
    { reason: 'files_infected', infectedFileIds: infected.map((f) => f.id), infectedFileNames: infected.map((f) => f.name) },
  );
}

/**
 * A finalized transfer goes out once no URL import of it is still running: it is sent (`ready_at`,
 * with `transfer.ready`, once), then its recipients are mailed (each once), so a mail never brings a
 * link that does not work yet. Called at finalize, and whenever one of its imports lands or fails;
 * until the last one, it does nothing.
 */
export async function whenImportsSettle(services: Services, transferId: string) {
  // Sent by this call, or before it (by another call, which may have died before mailing everyone).
  if (!(await markReadyIfComplete(services, transferId))) {
    const [sent] = await services.db.select({ readyAt: transfers.readyAt }).from(transfers).where(eq(transfers.id, transferId));
    if (!sent?.readyAt) return;
  }
  await notifyRecipients(services, transferId);
}

/**
 * Finalized transfers with every file settled that never went out: the process that landed (or gave
 * up) the last import died before it sent them. They go out now, once (whenImportsSettle emits the
 * event once and mails each recipient once; a crash between the two leaves the mail to
 * retryDeferredNotifications).
 */
export async function sendSettledTransfers(services: Services): Promise<number> {
  const due = await services.db
    .select({ id: transfers.id })
    .from(transfers)
    .where(
      and(
        eq(transfers.status, 'active'),
        isNotNull(transfers.finalizedAt),
        isNull(transfers.readyAt),
        notExists(
          services.db
            .select({ one: sql`1` })
            .from(storedFiles)
            .where(and(eq(storedFiles.ownerKind, 'transfer'), eq(storedFiles.ownerId, transfers.id), inArray(storedFiles.state, ['uploading', 'importing']))),
        ),
      ),
    );
  for (const { id } of due) await whenImportsSettle(services, id);
  return due.length;
}

/** Files named in a recipient's mail; the rest are counted. */
const MAIL_FILES_LISTED = 20;

/** The files of a transfer as a mail table in the reader's language: each with its folder and size, then the total. */
type MailedFile = { name: string; path: string | null; sizeBytes: number };

function filesTable(intl: MailIntl, files: MailedFile[]) {
  const total = files.reduce((sum, f) => sum + f.sizeBytes, 0);
  const rest = files.length - MAIL_FILES_LISTED;
  return {
    summary: intl.formatMessage(
      { id: 'mail.transferSent.summary', defaultMessage: '{count, plural, one {# file} other {# files}}, {size} in all' },
      { count: files.length, size: formatBytes(total, intl.locale) },
    ),
    rows: files.slice(0, MAIL_FILES_LISTED).map((f): [string, string] => [f.path ? `${f.path}/${f.name}` : f.name, formatBytes(f.sizeBytes, intl.locale)]),
    more: rest > 0 ? intl.formatMessage({ id: 'mail.transferSent.more', defaultMessage: '{count, plural, one {and # more file} other {and # more files}}' }, { count: rest }) : undefined,
  };
}

/** The mail a recipient gets, in their language: who sent what, until when, and their personal link. */
export function recipientMail(
  locale: Locale,
  t: Pick<TransferRow, 'title' | 'message' | 'expiresAt' | 'passwordHash'>,
  sender: string,
  files: MailedFile[],
  link: string,
) {
  const intl = mailIntl(locale);
  const values = { sender, title: t.title ?? '', count: files.length };
  const subject = t.title
    ? intl.formatMessage({ id: 'mail.transferSent.subjectTitled', defaultMessage: '{sender} sent you {title}', description: 'Subject of the mail to a transfer\'s recipient; title: what the sender called the transfer' }, values)
    : intl.formatMessage({ id: 'mail.transferSent.heading', defaultMessage: '{sender} sent you {count, plural, one {a file} other {# files}}', description: 'sender: the workspace\'s name' }, values);
  const heading = t.title ? intl.formatMessage({ id: 'mail.transferSent.headingTitled', defaultMessage: '{sender} sent you “{title}”' }, values) : subject;
  const content = renderEmail({
    locale,
    heading,
    paragraphs: [
      ...(t.message ? [t.message] : []),
      intl.formatMessage({ id: 'mail.transferSent.expires', defaultMessage: 'The link works until {date}.' }, { date: formatMailDate(intl, t.expiresAt) }),
      ...(t.passwordHash ? [intl.formatMessage({ id: 'mail.transferSent.password', defaultMessage: 'The sender protected it with a password; they will tell you what it is.' })] : []),
    ],
    table: filesTable(intl, files),
    action: { label: intl.formatMessage({ id: 'mail.transferSent.action', defaultMessage: 'Get your files' }), url: link },
  });
  return { subject: subjectLine(subject), ...content };
}

/**
 * Emails each recipient not yet notified a personal link, which attributes their downloads.
 * The token is minted here and only its hash kept. A permanent failure marks the recipient bounced;
 * a temporary one leaves them un-notified, for a later retry.
 */
export async function notifyRecipients(services: Services, transferId: string) {
  const { db, clock, config, mailer } = services;
  // First who is still to be mailed: usually nobody (no recipients, or all mailed), and then nothing else is read.
  const pending = await db
    .select()
    .from(transferRecipients)
    .where(and(eq(transferRecipients.transferId, transferId), isNull(transferRecipients.notifiedAt), isNull(transferRecipients.bouncedAt)))
    .orderBy(asc(transferRecipients.createdAt));
  if (pending.length === 0) return;
  const [row] = await db
    .select({ t: transfers, workspaceName: workspaces.name, senderLocale: users.locale })
    .from(transfers)
    .innerJoin(workspaces, eq(workspaces.id, transfers.workspaceId))
    .leftJoin(users, eq(users.id, transfers.createdBy))
    .where(eq(transfers.id, transferId));
  if (!row) return;
  const { t, workspaceName, senderLocale } = row;
  const files = await filesOfTransfer(db, t.id);
  // A recipient the sender chose no language for gets their contact's, else the sender's own.
  const languages = await contactLanguages(db, t.workspaceId, pending.map((r) => r.email));
  for (const r of pending) {
    const token = recipientLinkToken(services.sealingKey, r.id);
    await db
      .update(transferRecipients)
      .set({ linkTokenHash: sha256(token) })
      .where(and(eq(transferRecipients.id, r.id), isNull(transferRecipients.notifiedAt)));
    const link = `${transferUrl(config.PUBLIC_URL, t.slug)}?r=${token}`;
    const content = recipientMail(mailLocale(r.language, languages.get(r.email), senderLocale), t, workspaceName, files, link);
    await db.transaction(async (tx) => {
      // One sender per recipient at a time: whoever else gets here meanwhile (a second finalize, the
      // last import landing, the retry sweep, on any instance) skips the recipient rather than mail it again.
      const [claimed] = await tx
        .select({ id: transferRecipients.id })
        .from(transferRecipients)
        .where(and(eq(transferRecipients.id, r.id), isNull(transferRecipients.notifiedAt), isNull(transferRecipients.bouncedAt)))
        .for('update', { skipLocked: true });
      if (!claimed) return;
      const result = await mailer.send({
        to: r.email,
        subject: content.subject,
        text: content.text,
        html: content.html,
        tag: 'transfer.sent',
        workspaceId: t.workspaceId,
        // A crash after the send and before it is recorded sends the same message again, never a second one.
        idempotencyKey: `transfer.sent:${r.id}`,
      });
      const now = clock.now();
      if (result.status === 'sent') {
        await tx.update(transferRecipients).set({ notifiedAt: now }).where(eq(transferRecipients.id, r.id));
      } else if (result.status === 'bounced') {
        await tx.update(transferRecipients).set({ bouncedAt: now, bounceKind: result.kind }).where(eq(transferRecipients.id, r.id));
      } else {
        services.log.warn({ transferId: t.id, recipientId: r.id }, 'recipient mail deferred');
      }
    });
  }
}

/**
 * A recipient's personal link token, derived from the recipient with the server's key rather than
 * drawn at random: a mail sent again after a crash (the same message, see `idempotencyKey`) carries
 * the same working link. Only its hash is stored.
 */
export function recipientLinkToken(key: Buffer, recipientId: string): string {
  const digest = createHmac('sha256', key).update(`recipient-link\n${recipientId}`).digest();
  let token = '';
  for (const byte of digest) token += BASE62[byte % 62];
  return token;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Re-sends mail that was deferred by a temporary failure (or never sent: a crash after sending), for sent transfers still active. */
export async function retryDeferredNotifications(services: Services) {
  const rows = await services.db
    .selectDistinct({ id: transfers.id })
    .from(transfers)
    .innerJoin(transferRecipients, eq(transferRecipients.transferId, transfers.id))
    .where(and(ne(transfers.status, 'removed'), eq(transfers.status, 'active'), isNull(transferRecipients.notifiedAt), isNull(transferRecipients.bouncedAt)));
  for (const r of rows) {
    const [t] = await services.db.select({ readyAt: transfers.readyAt }).from(transfers).where(eq(transfers.id, r.id));
    if (t?.readyAt) await notifyRecipients(services, r.id);
  }
}
