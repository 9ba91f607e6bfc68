import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { formatBytes } from '../../../contract/units.js';
import { collectionFiles, files, requestSubmissions, uploadRequests } from '../../db/schema/index.js';
import { renderEmail } from '../../mail/html.js';
import { subjectLine } from '../../mail/message.js';
import { mailWorkspace } from '../../mail/workspace-mail.js';
import type { Services } from '../../services.js';

/**
 * The mail to the workspace when a submission completes: who sent what, their message, and a link
 * to its folder in the collection. The uploader's name, address and message are untrusted text:
 * renderEmail escapes them in the HTML part, the subject carries them without line breaks (the
 * mailer encodes non-ASCII), and Reply-To is set only from an address that passed validation. Each person reads it in
 * their own language.
 */

type MailServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

const DAY = 86_400_000;
const TABLE_ROWS = 20;

/** Claims the submission's mail (once), sends it to each person of the workspace, and releases the claim if the mail server said "later". */
export async function notifySubmission(services: MailServices, submissionId: string): Promise<boolean> {
  const { db, clock, config } = services;
  const [s] = await db
    .update(requestSubmissions)
    .set({ ownerNotifiedAt: clock.now() })
    .where(and(eq(requestSubmissions.id, submissionId), eq(requestSubmissions.status, 'complete'), isNull(requestSubmissions.ownerNotifiedAt)))
    .returning();
  if (!s) return false;
  const [r] = await db.select().from(uploadRequests).where(eq(uploadRequests.id, s.requestId));
  if (!r) return false;
  const sent = await db
    .select({ name: files.name, size: files.sizeBytes })
    .from(collectionFiles)
    .innerJoin(files, eq(files.id, collectionFiles.fileId))
    .where(eq(collectionFiles.submissionId, s.id))
    .orderBy(asc(files.seq));
  const total = sent.reduce((sum, f) => sum + f.size, 0);
  const folderUrl =
    s.collectionId === null
      ? `${config.PUBLIC_URL}/requests/${encodeURIComponent(r.id)}`
      : `${config.PUBLIC_URL}/collections/${encodeURIComponent(s.collectionId)}${s.folderId ? `?folder=${encodeURIComponent(s.folderId)}` : ''}`;
  const settled = await mailWorkspace(services, r.workspaceId, (intl, locale) => {
    const values = { name: s.uploaderName, email: s.uploaderEmail ?? '', title: r.title, count: sent.length, size: formatBytes(total, intl.locale) };
    const content = renderEmail({
      locale,
      heading: intl.formatMessage({ id: 'mail.requestSubmitted.heading', defaultMessage: 'New files for “{title}”', description: 'title: the upload request\'s title' }, values),
      paragraphs: [
        s.uploaderEmail
          ? intl.formatMessage(
              { id: 'mail.requestSubmitted.sentBy', defaultMessage: '{name} ({email}) sent {count, plural, one {# file} other {# files}} ({size}) through your upload request.', description: 'name and email: what the uploader typed; size: of all the files together' },
              values,
            )
          : intl.formatMessage(
              { id: 'mail.requestSubmitted.sentByName', defaultMessage: '{name} sent {count, plural, one {# file} other {# files}} ({size}) through your upload request.', description: 'name: what the uploader typed; size: of all the files together' },
              values,
            ),
        // The label, then what they wrote from the next line on, as they wrote it.
        ...(s.message ? [`${intl.formatMessage({ id: 'mail.requestSubmitted.message', defaultMessage: 'Their message:', description: 'Followed, from the next line on, by what the uploader wrote' })}\n${s.message}`] : []),
      ],
      table: {
        summary: intl.formatMessage({ id: 'mail.requestSubmitted.files', defaultMessage: 'Files', description: 'Above the list of the files sent' }),
        rows: sent.slice(0, TABLE_ROWS).map((f) => [f.name, formatBytes(f.size, intl.locale)] as [string, string]),
        ...(sent.length > TABLE_ROWS
          ? { more: intl.formatMessage({ id: 'mail.requestSubmitted.more', defaultMessage: '{count, plural, one {and # more} other {and # more}}', description: 'After the files listed: how many more files were sent' }, { count: sent.length - TABLE_ROWS }) }
          : {}),
      },
      action: { label: intl.formatMessage({ id: 'mail.requestSubmitted.action', defaultMessage: 'Open their folder' }), url: folderUrl },
    });
    return {
      subject: subjectLine(intl.formatMessage({ id: 'mail.requestSubmitted.subject', defaultMessage: 'New files from {name}: {title}', description: 'name: what the uploader typed; title: the upload request\'s title' }, values)),
      text: content.text,
      html: content.html,
      ...(s.uploaderEmail ? { replyTo: s.uploaderEmail } : {}),
      tag: 'request.submitted',
    };
  });
  if (!settled) {
    await db.update(requestSubmissions).set({ ownerNotifiedAt: null }).where(eq(requestSubmissions.id, s.id));
    services.log.warn({ submissionId: s.id }, 'submission mail deferred');
  }
  return settled;
}

/** Submissions completed within the last day whose mail has not gone out (a crash, or a mail server that said "later"). */
export async function retrySubmissionMails(services: MailServices): Promise<number> {
  const since = new Date(services.clock.now().getTime() - DAY);
  const due = await services.db
    .select({ id: requestSubmissions.id })
    .from(requestSubmissions)
    .where(and(eq(requestSubmissions.status, 'complete'), isNull(requestSubmissions.ownerNotifiedAt), gt(requestSubmissions.completedAt, since)));
  let sent = 0;
  for (const { id } of due) if (await notifySubmission(services, id)) sent += 1;
  return sent;
}
