import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { formatBytes } from '../../../contract/units.js';
import { collectionFiles, files, requestSubmissions, uploadRequests } from '../../db/schema/index.js';
import { renderEmail } from '../../mail/html.js';
import { mailWorkspace } from '../../mail/workspace-mail.js';
import type { Services } from '../../services.js';

/**
 * The mail to the workspace when a submission completes: who sent what, their message, and a link
 * to its folder in the collection. The uploader's name, address and message are untrusted text:
 * renderEmail escapes them in the HTML part, the subject carries them without line breaks (the
 * mailer encodes non-ASCII), and Reply-To is set only from an address that passed validation.
 */

type MailServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

const DAY = 86_400_000;
const TABLE_ROWS = 20;
const oneLine = (s: string, max: number) => s.replace(/[\r\n\t]+/g, ' ').slice(0, max);

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
  const who = s.uploaderEmail ? `${s.uploaderName} (${s.uploaderEmail})` : s.uploaderName;
  const folderUrl =
    s.collectionId === null
      ? `${config.PUBLIC_URL}/requests/${encodeURIComponent(r.id)}`
      : `${config.PUBLIC_URL}/collections/${encodeURIComponent(s.collectionId)}${s.folderId ? `?folder=${encodeURIComponent(s.folderId)}` : ''}`;
  const content = renderEmail({
    heading: `New files for “${r.title}”`,
    paragraphs: [
      `${who} sent ${sent.length} ${sent.length === 1 ? 'file' : 'files'} (${formatBytes(total)}) through your upload request.`,
      ...(s.message ? [`Their message:\n${s.message}`] : []),
    ],
    table: {
      summary: 'Files',
      rows: sent.slice(0, TABLE_ROWS).map((f) => [f.name, formatBytes(f.size)] as [string, string]),
      ...(sent.length > TABLE_ROWS ? { more: `and ${sent.length - TABLE_ROWS} more` } : {}),
    },
    action: { label: 'Open their folder', url: folderUrl },
  });
  const settled = await mailWorkspace(services, r.workspaceId, {
    subject: oneLine(`New files from ${s.uploaderName}: ${r.title}`, 200),
    text: content.text,
    html: content.html,
    ...(s.uploaderEmail ? { replyTo: s.uploaderEmail } : {}),
    tag: 'request.submitted',
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
