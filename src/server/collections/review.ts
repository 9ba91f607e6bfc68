import { and, asc, eq, gte, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Comment } from '../../contract/collections.js';
import type { Caller } from '../core/caller.js';
import { notFound } from '../core/errors.js';
import { resourceIdPattern } from '../../contract/ids.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { collectionComments, collectionFiles, collectionGuests, collections, files, type ReviewState } from '../db/schema/index.js';
import { emitEvent } from '../events/emit.js';
import { renderEmail } from '../mail/html.js';
import type { MailIntl } from '../mail/intl.js';
import { subjectLine } from '../mail/message.js';
import { mailWorkspace } from '../mail/workspace-mail.js';
import type { Services } from '../services.js';
import type { CollectionAccess } from './access.js';
import { lockOwnCollection, ownCollection, type CollectionRow } from './collections.js';
import { filesOfCollection, type CollectionFileRow } from './files.js';
import { offeredFile } from './visibility.js';
import { said } from '../core/sentences.js';

/**
 * Review: on each file of a collection, its guests and the workspace's members (and keys) leave comments (plain
 * text, threaded by file) and decide a review state, `approved` or `changes_requested`; the latest decision is the
 * file's. Every decision emits `collection.file_reviewed`. The workspace hears of its guests' comments and decisions
 * by mail as the collection says (`reviewMail`): a daily digest (the default), each one, or not at all.
 *
 * Guests review what they can see (a complete, sent file not in the trash); visitors who are not guests (a public
 * link, a password) read neither comments nor decisions, and cannot make them: a review needs a name to stand by it.
 */

export interface Reviewer {
  kind: 'member' | 'key' | 'guest';
  id: string | null;
  email: string | null;
  name: string | null;
}

const DAY_MS = 86_400_000;

/** The member or key acting through the API or the dashboard. */
export function reviewerOfCaller(caller: Caller): Reviewer {
  if (caller.member) return { kind: 'member', id: caller.member.userId, email: caller.member.email, name: caller.member.name };
  return { kind: 'key', id: caller.credentialId, email: null, name: caller.credentialName };
}

/** The guest a visitor's access names, or null for any other visitor (who may not review). */
export async function reviewerOfVisitor(db: Pick<Database, 'select'>, c: Pick<CollectionRow, 'id'>, access: CollectionAccess): Promise<Reviewer | null> {
  if (access.kind !== 'guest') return null;
  const [guest] = await db.select({ id: collectionGuests.id, email: collectionGuests.email }).from(collectionGuests).where(and(eq(collectionGuests.id, access.guestId), eq(collectionGuests.collectionId, c.id)));
  return guest ? { kind: 'guest', id: guest.id, email: guest.email, name: null } : null;
}

const toComment = (row: typeof collectionComments.$inferSelect): Comment => ({
  id: row.id,
  fileId: row.fileId,
  author: { kind: row.authorKind, id: row.authorId, email: row.authorEmail, name: row.authorName },
  body: row.body,
  createdAt: row.createdAt.toISOString(),
});

/** The file as the reviewer may see it: any live file for the workspace, an offered one for a guest; else 404. */
async function reviewedFile(db: Pick<Database, 'select'>, c: Pick<CollectionRow, 'id'>, fileId: string, by: Reviewer): Promise<CollectionFileRow> {
  // What cannot be a file id (a slug, a NUL) names no file, without a query.
  if (!resourceIdPattern('fi').test(fileId)) throw notFound(said({ id: 'api.collections.fileNotFound', defaultMessage: 'File not found' }));
  const [file] = await filesOfCollection(db, c.id, and(eq(files.id, fileId), by.kind === 'guest' ? offeredFile : undefined));
  if (!file) throw notFound(said({ id: 'api.collections.fileNotFound', defaultMessage: 'File not found' }));
  return file;
}

/** A file's comments, oldest first. */
export async function commentsOf(services: Pick<Services, 'db'>, c: Pick<CollectionRow, 'id'>, fileId: string, by: Reviewer): Promise<Comment[]> {
  await reviewedFile(services.db, c, fileId, by);
  const rows = await services.db.select().from(collectionComments).where(eq(collectionComments.fileId, fileId)).orderBy(asc(collectionComments.seq));
  return rows.map(toComment);
}

type ReviewServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

/** Adds a comment to a file; a guest's is mailed to the workspace at once when the collection says `each`. */
export async function addComment(services: ReviewServices, c: CollectionRow, fileId: string, by: Reviewer, body: string): Promise<Comment> {
  const file = await reviewedFile(services.db, c, fileId, by);
  const [row] = await services.db
    .insert(collectionComments)
    .values({ id: newId('cm'), collectionId: c.id, fileId, authorKind: by.kind, authorId: by.id, authorEmail: by.email, authorName: by.name, body, createdAt: services.clock.now() })
    .returning();
  if (by.kind === 'guest' && c.reviewMail === 'each') {
    await mailNow(services, c, (intl) => {
      const values = { ...guestValues(by.email), file: file.name, collection: c.title };
      return {
        heading: intl.formatMessage({ id: 'mail.review.commentedSubject', defaultMessage: '{known, select, yes {{guest}} other {A guest}} commented on “{file}”', description: 'known: yes when the guest\'s address is known (guest: it), else "A guest"; file: the file\'s name' }, values),
        paragraphs: [
          intl.formatMessage({ id: 'mail.review.commented', defaultMessage: '{known, select, yes {{guest}} other {A guest}} wrote about “{file}” in “{collection}”:', description: 'Followed by the comment; collection: the collection\'s title' }, values),
          body,
        ],
      };
    });
  }
  return toComment(row!);
}

/** Who reviewed, for a message's `{known, select, yes {{guest}} other {A guest}}`: a guest's address, when known. */
const guestValues = (email: string | null) => ({ known: email === null ? 'no' : 'yes', guest: email ?? '' });

/** A guest's decision on a file: a heading, or a sentence naming the collection too. */
function decisionWords(intl: MailIntl, state: ReviewState, email: string | null, file: string, collection?: string): string {
  const values = { ...guestValues(email), file, collection: collection ?? '' };
  if (collection === undefined) {
    return state === 'approved'
      ? intl.formatMessage({ id: 'mail.review.approvedSubject', defaultMessage: '{known, select, yes {{guest}} other {A guest}} approved “{file}”', description: 'known: yes when the guest\'s address is known (guest: it), else "A guest"; file: the file\'s name' }, values)
      : intl.formatMessage({ id: 'mail.review.changesSubject', defaultMessage: '{known, select, yes {{guest}} other {A guest}} asked for changes to “{file}”', description: 'known: yes when the guest\'s address is known (guest: it), else "A guest"; file: the file\'s name' }, values);
  }
  return state === 'approved'
    ? intl.formatMessage({ id: 'mail.review.approved', defaultMessage: '{known, select, yes {{guest}} other {A guest}} approved “{file}” in “{collection}”.', description: 'collection: the collection\'s title' }, values)
    : intl.formatMessage({ id: 'mail.review.changes', defaultMessage: '{known, select, yes {{guest}} other {A guest}} asked for changes to “{file}” in “{collection}”.', description: 'collection: the collection\'s title' }, values);
}

/**
 * Records a decision on a file (or clears it with null), emits `collection.file_reviewed`, and mails a guest's
 * decision at once when the collection says `each`. Returns the file's review as it now is.
 */
export async function setReview(services: ReviewServices, c: CollectionRow, fileId: string, by: Reviewer, state: ReviewState | null) {
  const file = await reviewedFile(services.db, c, fileId, by);
  const now = services.clock.now();
  await services.db.transaction(async (tx) => {
    await tx
      .update(collectionFiles)
      .set(state === null ? { reviewState: null, reviewedByKind: null, reviewedByEmail: null, reviewedAt: null } : { reviewState: state, reviewedByKind: by.kind, reviewedByEmail: by.email, reviewedAt: now })
      .where(eq(collectionFiles.fileId, fileId));
    await emitEvent(tx, {
      workspaceId: c.workspaceId,
      type: 'collection.file_reviewed',
      subject: { kind: 'collection', id: c.id },
      now,
      billing: services.config,
      data: {
        collection: { id: c.id, title: c.title },
        file: { id: file.id, name: file.name, size: file.sizeBytes, folderId: file.folderId },
        review: { state, by: { kind: by.kind, email: by.email }, at: now.toISOString() },
      },
    });
  });
  if (by.kind === 'guest' && state !== null && c.reviewMail === 'each') {
    await mailNow(services, c, (intl) => ({
      heading: decisionWords(intl, state, by.email, file.name),
      paragraphs: [decisionWords(intl, state, by.email, file.name, c.title)],
    }));
  }
  return state === null ? null : { state, by: { kind: by.kind, email: by.email }, at: now.toISOString() };
}

/** Mails the workspace a review's news, each person in their language: the heading is also the subject. */
async function mailNow(services: ReviewServices, c: CollectionRow, write: (intl: MailIntl) => { heading: string; paragraphs: string[] }) {
  const url = `${services.config.PUBLIC_URL}/collections/${encodeURIComponent(c.id)}`;
  await mailWorkspace(services, c.workspaceId, (intl, locale) => {
    const { heading, paragraphs } = write(intl);
    const content = renderEmail({ locale, heading, paragraphs, action: { label: intl.formatMessage({ id: 'mail.collection.open', defaultMessage: 'Open the collection' }), url } });
    return { subject: subjectLine(heading), text: content.text, html: content.html, tag: 'collection.review' };
  }).catch((err: unknown) => services.log.error({ err, collectionId: c.id }, 'review mail failed'));
}

/** The workspace's own reading, by collection id: a file's comments. */
export async function listFileComments(services: Pick<Services, 'db'>, caller: Caller, collectionId: string, fileId: string) {
  const c = await ownCollection(services, caller, collectionId);
  return commentsOf(services, c, fileId, reviewerOfCaller(caller));
}

export async function commentAsCaller(services: ReviewServices, caller: Caller, collectionId: string, fileId: string, body: string) {
  const c = await services.db.transaction((tx) => lockOwnCollection(tx, caller, collectionId));
  return addComment(services, c, fileId, reviewerOfCaller(caller), body);
}

export async function reviewAsCaller(services: ReviewServices, caller: Caller, collectionId: string, fileId: string, state: ReviewState | null) {
  const c = await ownCollection(services, caller, collectionId);
  return setReview(services, c, fileId, reviewerOfCaller(caller), state);
}

/**
 * The daily digest, from the maintenance sweep: every collection set to `daily` whose guests commented or decided
 * since its last digest, and whose last digest is a day old (or that never had one), gets one mail listing what
 * happened, by file. Returns how many digests went.
 */
export async function sendReviewDigests(services: ReviewServices): Promise<number> {
  const now = services.clock.now();
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const since = sql`coalesce(${collections.reviewDigestAt}, ${collections.createdAt})`;
  const due = await services.db
    .select()
    .from(collections)
    .where(
      and(
        eq(collections.reviewMail, 'daily'),
        or(sql`${collections.reviewDigestAt} is null`, lt(collections.reviewDigestAt, dayAgo)),
        or(
          sql`exists (select 1 from ${collectionComments} where ${collectionComments.collectionId} = ${collections.id} and ${collectionComments.authorKind} = 'guest' and ${collectionComments.createdAt} >= ${since})`,
          sql`exists (select 1 from ${collectionFiles} where ${collectionFiles.collectionId} = ${collections.id} and ${collectionFiles.reviewedByKind} = 'guest' and ${collectionFiles.reviewedAt} >= ${since})`,
        ),
      ),
    )
    .limit(200);
  let sent = 0;
  for (const c of due) {
    const from = c.reviewDigestAt ?? c.createdAt;
    const comments = await services.db
      .select({ fileName: files.name, email: collectionComments.authorEmail, body: collectionComments.body })
      .from(collectionComments)
      .innerJoin(files, eq(files.id, collectionComments.fileId))
      .where(and(eq(collectionComments.collectionId, c.id), eq(collectionComments.authorKind, 'guest'), gte(collectionComments.createdAt, from)))
      .orderBy(asc(collectionComments.seq));
    const decisions = await services.db
      .select({ fileName: files.name, email: collectionFiles.reviewedByEmail, state: collectionFiles.reviewState })
      .from(collectionFiles)
      .innerJoin(files, eq(files.id, collectionFiles.fileId))
      .where(and(eq(collectionFiles.collectionId, c.id), eq(collectionFiles.reviewedByKind, 'guest'), isNotNull(collectionFiles.reviewState), gte(collectionFiles.reviewedAt, from)));
    const news = decisions.length + comments.length;
    // Claimed first, so two workers never send the same digest.
    const [claimed] = await services.db
      .update(collections)
      .set({ reviewDigestAt: now })
      .where(and(eq(collections.id, c.id), c.reviewDigestAt === null ? sql`${collections.reviewDigestAt} is null` : eq(collections.reviewDigestAt, c.reviewDigestAt)))
      .returning({ id: collections.id });
    if (!claimed || news === 0) continue;
    await mailNow(services, c, (intl) => ({
      heading: intl.formatMessage(
        {
          id: 'mail.review.digestSubject',
          defaultMessage: 'Reviews of “{collection}”: {decisions, plural, one {# decision} other {# decisions}}, {comments, plural, one {# comment} other {# comments}}',
          description: 'collection: the collection\'s title; decisions: how many files guests approved or asked changes to',
        },
        { collection: c.title, decisions: decisions.length, comments: comments.length },
      ),
      paragraphs: [
        intl.formatMessage({ id: 'mail.review.digestIntro', defaultMessage: 'What your guests said about “{collection}” since the last digest:' }, { collection: c.title }),
        ...decisions.map((d) =>
          d.state === 'approved'
            ? intl.formatMessage({ id: 'mail.review.digestApproved', defaultMessage: '{known, select, yes {{guest}} other {A guest}} approved “{file}”.', description: 'A line of the daily digest' }, { ...guestValues(d.email), file: d.fileName })
            : intl.formatMessage({ id: 'mail.review.digestChanges', defaultMessage: '{known, select, yes {{guest}} other {A guest}} asked for changes to “{file}”.', description: 'A line of the daily digest' }, { ...guestValues(d.email), file: d.fileName }),
        ),
        ...comments.map((m) =>
          intl.formatMessage(
            { id: 'mail.review.digestComment', defaultMessage: '{known, select, yes {{guest}} other {A guest}} on “{file}”: {comment}', description: 'A line of the daily digest; comment: what the guest wrote (its first 300 characters)' },
            { ...guestValues(m.email), file: m.fileName, comment: m.body.length > 300 ? `${m.body.slice(0, 300)}…` : m.body },
          ),
        ),
      ],
    }));
    sent++;
  }
  return sent;
}
