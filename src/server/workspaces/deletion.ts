import { and, eq, inArray, ne, notExists, or, sql } from 'drizzle-orm';
import { ApiError, invalidField } from '../core/errors.js';
import { said } from '../core/sentences.js';
import { files, memberships, oauthStore, users, vaults, workspaces } from '../db/schema/index.js';
import { deleteStoredBytes } from '../files/stored.js';
import { renderEmail } from '../mail/html.js';
import type { MailIntl } from '../mail/intl.js';
import { mailEach, type Addressee } from '../mail/workspace-mail.js';
import type { Locale } from '../../contract/locales.js';
import type { Services } from '../services.js';
import { requireRole, workspacesOf, type ActingMember } from './members.js';

/**
 * Deleting a workspace, its owner's last word on it (docs/teams.md). Everything it holds goes in one
 * transaction: transfers and their links, collections, upload requests, contacts, API keys, webhooks,
 * its activity, the vaults made in it. Its stored bytes are deleted right after (the orphan sweep
 * finishes the job should the process stop meanwhile). Its people are mailed.
 *
 * A person's account outlives the workspace when they belong to another: their sessions in it move
 * to the first of those. An account it leaves with no workspace is deleted with it, so that its
 * address is free to sign up again; the server's operator's never is, as the operator signs in to
 * run the server: deleting their last workspace is refused until they have another.
 */

type DeletionServices = Pick<Services, 'db' | 'mailer' | 'storage' | 'log' | 'config'>;

export interface DeletedWorkspace {
  /** The workspace the acting owner's session moved to; null when they belong to no other (their account is gone). */
  movedTo: string | null;
}

export async function deleteWorkspace(services: DeletionServices, actor: ActingMember, confirmation: { name: string }): Promise<DeletedWorkspace> {
  requireRole(actor, 'owner');
  const { db, log } = services;
  const outcome = await db.transaction(async (tx) => {
    const [ws] = await tx.select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(eq(workspaces.id, actor.workspaceId)).for('update');
    if (!ws) throw new ApiError('not_found', said({ id: 'api.members.workspaceNotFound', defaultMessage: 'Workspace not found' }));
    if (confirmation.name.trim() !== ws.name.trim()) {
      throw invalidField('body', 'name', said({ id: 'api.workspaces.deleteNameMismatch', defaultMessage: 'Type the workspace’s name exactly as it is, to confirm' }));
    }
    const people = await tx
      .select({ id: users.id, email: users.email, locale: users.locale, isOperator: users.isOperator, disabledAt: users.disabledAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.workspaceId, ws.id));
    const elsewhere = new Set(
      (
        await tx
          .selectDistinct({ userId: memberships.userId })
          .from(memberships)
          .where(and(inArray(memberships.userId, people.map((p) => p.id)), ne(memberships.workspaceId, ws.id)))
      ).map((r) => r.userId),
    );
    const leftWithout = people.filter((p) => !elsewhere.has(p.id));
    const operator = leftWithout.find((p) => p.isOperator);
    if (operator) {
      const message =
        operator.id === actor.userId
          ? said({ id: 'api.workspaces.yourLastWorkspace', defaultMessage: 'You run this server and need a workspace to sign in: this one, your last, can be deleted once you belong to another' })
          : said({
              id: 'api.workspaces.operatorsLastWorkspace',
              defaultMessage: 'This is the last workspace of the person who runs this server, who needs one to sign in: they must belong to another workspace first',
            });
      throw new ApiError('conflict', message, { reason: 'operators_last_workspace' });
    }
    const leavingIds = leftWithout.map((p) => p.id);

    // Sessions of people with another workspace carry on in the first of theirs (members.ts joinedOrder, written
    // out in SQL as the subquery follows each updated row), as if they had switched (their tokens, each bound to
    // this workspace, end with it).
    await tx.execute(sql`
      update sessions s set workspace_id = (
        select m.workspace_id from memberships m join workspaces w on w.id = m.workspace_id
        where m.user_id = s.user_id and m.workspace_id <> ${ws.id} and w.disabled_at is null
        order by m.created_at, m.invited_by is null desc, m.workspace_id limit 1)
      where s.workspace_id = ${ws.id} and exists (
        select 1 from memberships m join workspaces w on w.id = m.workspace_id
        where m.user_id = s.user_id and m.workspace_id <> ${ws.id} and w.disabled_at is null)`);
    const movedTo = (await workspacesOf(tx, actor.userId)).find((w) => w.id !== ws.id)?.id ?? null;

    // Files name their owner without a foreign key: the workspace's, and those of the vaults of accounts that go.
    const leavingVaults = leavingIds.length > 0 ? tx.select({ id: vaults.id }).from(vaults).where(inArray(vaults.userId, leavingIds)) : null;
    const removed = await tx
      .delete(files)
      .where(or(eq(files.workspaceId, ws.id), leavingVaults ? and(eq(files.ownerKind, 'vault'), inArray(files.ownerId, leavingVaults)) : undefined))
      .returning({ id: files.id, storageKey: files.storageKey, thumbnailKey: files.thumbnailKey });
    // An app's grant is a member's (`<workspace>/<person>`), with no foreign key either.
    await tx.delete(oauthStore).where(sql`left(${oauthStore.accountId}, ${ws.id.length + 1}) = ${`${ws.id}/`}`);
    await tx.delete(workspaces).where(eq(workspaces.id, ws.id));
    // Asked again at the delete: someone who joined another workspace meanwhile keeps their account.
    const stillWithout = notExists(tx.select({ one: sql`1` }).from(memberships).where(eq(memberships.userId, users.id)));
    const gone = leavingIds.length > 0 ? await tx.delete(users).where(and(inArray(users.id, leavingIds), stillWithout)).returning({ id: users.id }) : [];
    return { ws, people, leaving: new Set(gone.map((u) => u.id)), removed, movedTo };
  });

  log.info({ workspaceId: outcome.ws.id, by: actor.userId, files: outcome.removed.length, accountsDeleted: outcome.leaving.size }, 'workspace deleted');
  const by = actor.name ?? actor.email;
  const mailed = (p: (typeof outcome.people)[number]): Addressee => ({ email: p.email, locale: p.locale });
  const active = outcome.people.filter((p) => p.disabledAt === null);
  await mailEach(services, null, active.filter((p) => !outcome.leaving.has(p.id)).map(mailed), (intl, locale) => deletionMail(services, intl, locale, { workspace: outcome.ws.name, by, accountDeleted: false }));
  await mailEach(services, null, active.filter((p) => outcome.leaving.has(p.id)).map(mailed), (intl, locale) => deletionMail(services, intl, locale, { workspace: outcome.ws.name, by, accountDeleted: true }));
  // After the answer's work, not before: the rows are gone, so nothing can serve these bytes any more.
  void deleteStoredBytes(services, outcome.removed).catch((err: unknown) => log.error({ err }, 'could not delete a deleted workspace’s bytes'));
  return { movedTo: outcome.movedTo };
}

function deletionMail(
  services: Pick<Services, 'config'>,
  intl: MailIntl,
  locale: Locale,
  facts: { workspace: string; by: string; accountDeleted: boolean },
) {
  const subject = intl.formatMessage({ id: 'mail.workspaceDeleted.subject', defaultMessage: 'The workspace “{workspace}” was deleted', description: 'workspace: its name' }, { workspace: facts.workspace });
  const content = renderEmail({
    locale,
    heading: intl.formatMessage({ id: 'mail.workspaceDeleted.heading', defaultMessage: 'Workspace deleted' }),
    paragraphs: [
      intl.formatMessage(
        {
          id: 'mail.workspaceDeleted.what',
          defaultMessage:
            '{by} deleted the workspace “{workspace}” with everything in it: its transfers and their links, collections, upload requests, contacts, API keys, webhooks and the vaults made in it.',
          description: 'by: the owner who deleted it (name or address); workspace: its name',
        },
        { by: facts.by, workspace: facts.workspace },
      ),
      facts.accountDeleted
        ? intl.formatMessage({
            id: 'mail.workspaceDeleted.accountDeleted',
            defaultMessage: 'Your Parcel account was deleted with it, as it belonged to no other workspace. You can sign up again with this address at any time.',
          })
        : intl.formatMessage({ id: 'mail.workspaceDeleted.accountKept', defaultMessage: 'Your account stays: you still work in your other workspaces.' }),
    ],
    action: facts.accountDeleted ? undefined : { label: intl.formatMessage({ id: 'mail.workspaceDeleted.action', defaultMessage: 'Open Parcel' }), url: services.config.PUBLIC_URL.replace(/\/$/, '') },
  });
  return { subject, text: content.text, html: content.html, tag: 'workspace.deleted' };
}
