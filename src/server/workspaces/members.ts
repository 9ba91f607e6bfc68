import { memberActor, recordActivity } from '../activity/activity.js';
import { and, asc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { InvitationPreviewSchema, MemberInvitation, MemberListSchema, WorkspaceChoice } from '../../contract/members.js';
import type { MemberRole } from '../../contract/scope-names.js';
import { ApiError, notFound } from '../core/errors.js';
import { newId, randomBase62, sha256 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { accessTokens, collections, memberInvitations, memberships, oauthStore, sessions, transfers, uploadRequests, users, webhookEndpoints, workspaces } from '../db/schema/index.js';
import { renderEmail } from '../mail/html.js';
import { mailIntl, mailLocale } from '../mail/intl.js';
import { contactLanguages } from '../mail/languages.js';
import { subjectLine } from '../mail/message.js';
import type { Services } from '../services.js';
import { hashPassword } from '../auth/passwords.js';
import { billingOff, effectivePlan } from './plan.js';
import { said, type Sentence } from '../core/sentences.js';

/**
 * A workspace's members and invitations (docs/teams.md): who is in it with which role, inviting by
 * email, joining, changing roles, removing, leaving and handing over ownership. Every operation
 * takes the member acting and checks their role itself; the surfaces only parse and answer.
 */

/** The member acting: a signed-in person in the workspace they are working in. */
export interface ActingMember {
  workspaceId: string;
  userId: string;
  name: string | null;
  email: string;
  role: MemberRole;
}

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const rank: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

/** 403 `forbidden` (reason `role_required`, naming the role) unless the member's role is at least `needed`. */
export function requireRole(actor: { role: MemberRole }, needed: 'admin' | 'owner'): void {
  if (rank[actor.role] >= rank[needed]) return;
  const message =
    needed === 'owner'
      ? said({ id: 'api.members.ownerOnly', defaultMessage: 'Only the workspace’s owner can do this' })
      : said({ id: 'api.members.ownerAndAdminsOnly', defaultMessage: 'Only the workspace’s owner and admins can do this' });
  throw new ApiError('forbidden', message, { reason: 'role_required', role: needed });
}

/** How many members (with open invitations) the workspace's plan allows; null for no limit. */
export function memberLimit(services: Pick<Services, 'config' | 'clock'>, ws: { plan: 'free' | 'paid'; planUntil: Date | null }): number | null {
  const { config } = services;
  if (billingOff(config)) return null;
  const limit = effectivePlan(ws, services.clock.now(), config) === 'paid' ? config.PAID_MAX_MEMBERS : config.FREE_MAX_MEMBERS;
  return limit > 0 ? limit : null;
}

const openInvitation = (now: Date) => and(isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt), gt(memberInvitations.expiresAt, now));

function toInvitation(row: typeof memberInvitations.$inferSelect, inviter: { name: string | null; email: string } | null, now: Date): MemberInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: inviter && { name: inviter.name, email: inviter.email },
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
  };
}

/**
 * The workspace's members, the earliest to join first, and (for its owner and admins) the
 * invitations not yet accepted or revoked, expired ones included so they can be sent again.
 */
export async function listMembers(services: Pick<Services, 'db' | 'clock'>, actor: ActingMember): Promise<z.output<typeof MemberListSchema>> {
  const { db, clock } = services;
  const now = clock.now();
  const members = await db
    .select({ id: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt, disabledAt: users.disabledAt, twoStepAt: users.totpEnabledAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, actor.workspaceId))
    .orderBy(asc(memberships.createdAt), asc(users.id));
  let invitations: MemberInvitation[] = [];
  if (rank[actor.role] >= rank.admin) {
    const rows = await db
      .select({ invitation: memberInvitations, inviterName: users.name, inviterEmail: users.email })
      .from(memberInvitations)
      .leftJoin(users, eq(users.id, memberInvitations.invitedBy))
      .where(and(eq(memberInvitations.workspaceId, actor.workspaceId), isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt)))
      .orderBy(asc(memberInvitations.createdAt));
    invitations = rows.map((r) => toInvitation(r.invitation, r.inviterEmail === null ? null : { name: r.inviterName, email: r.inviterEmail }, now));
  }
  return {
    members: members.map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role, joinedAt: m.joinedAt.toISOString(), disabled: m.disabledAt !== null, twoStep: m.twoStepAt !== null })),
    invitations,
  };
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The invitation mail, in the invitee's language: their own when they have an account already (Settings), else their
 * contact's in the workspace's address book, else the inviter's own.
 */
async function mailInvitation(
  services: Pick<Services, 'db' | 'config' | 'mailer'>,
  to: string,
  token: string,
  ws: { id: string; name: string },
  inviter: { name: string | null; email: string; locale: string | null },
  role: 'admin' | 'member',
) {
  const link = `${services.config.PUBLIC_URL.replace(/\/$/, '')}/join?token=${token}`;
  const [account] = await services.db.select({ locale: users.locale }).from(users).where(eq(sql`lower(${users.email})`, to.toLowerCase()));
  const contacts = await contactLanguages(services.db, ws.id, [to.toLowerCase()]);
  const locale = mailLocale(account?.locale, contacts.get(to.toLowerCase()), inviter.locale);
  const intl = mailIntl(locale);
  const values = { workspace: ws.name, name: inviter.name ?? '', email: inviter.email, role };
  const title = intl.formatMessage({ id: 'mail.memberInvited.heading', defaultMessage: 'Join {workspace} on Parcel', description: 'workspace: the workspace\'s name' }, values);
  const content = renderEmail({
    locale,
    heading: title,
    paragraphs: [
      inviter.name
        ? intl.formatMessage(
            {
              id: 'mail.memberInvited.invitesNamed',
              defaultMessage: '{name} ({email}) invites you to the workspace {workspace} as {role, select, admin {an admin} other {a member}}: send files by link and email, and share collections and upload requests with your team.',
              description: 'name and email: the inviting member\'s; role: the role the invitee gets (admin or member)',
            },
            values,
          )
        : intl.formatMessage(
            {
              id: 'mail.memberInvited.invites',
              defaultMessage: '{email} invites you to the workspace {workspace} as {role, select, admin {an admin} other {a member}}: send files by link and email, and share collections and upload requests with your team.',
              description: 'email: the inviting member\'s address; role: the role the invitee gets (admin or member)',
            },
            values,
          ),
      intl.formatMessage({ id: 'mail.memberInvited.validity', defaultMessage: 'The invitation is for this address and works for 7 days. If you did not expect it, ignore this mail.' }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.memberInvited.action', defaultMessage: 'Join {workspace}', description: 'A button; workspace: the workspace\'s name' }, values), url: link },
  });
  await services.mailer.send({ to, subject: subjectLine(title), text: content.text, html: content.html, tag: 'workspace.invitation', workspaceId: ws.id });
}

async function actorProfile(db: Pick<Database, 'select'>, userId: string) {
  const [me] = await db.select({ name: users.name, email: users.email, locale: users.locale }).from(users).where(eq(users.id, userId));
  if (!me) throw new ApiError('unauthorized', said({ id: 'api.members.signContinue', defaultMessage: 'Sign in to continue' }));
  return me;
}

/**
 * Invites an address into the workspace with a role (admin and owner only). Refused when the
 * address is already a member (409 `already_member`) or has an open invitation (409
 * `already_invited`: send it again instead), and past the plan's member limit (402). An expired
 * invitation for the address is replaced.
 */
export async function inviteMember(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'mailer'>,
  actor: ActingMember,
  input: { email: string; role: 'admin' | 'member' },
): Promise<MemberInvitation> {
  requireRole(actor, 'admin');
  const { db, clock } = services;
  const now = clock.now();
  const email = input.email.trim().toLowerCase();
  const token = randomBase62(32);
  const { row, ws } = await db.transaction(async (tx) => {
    // Serialises invitations of one workspace, so two at once cannot both pass the limit.
    const [ws] = await tx.select().from(workspaces).where(eq(workspaces.id, actor.workspaceId)).for('update');
    if (!ws) throw notFound(said({ id: 'api.members.workspaceNotFound', defaultMessage: 'Workspace not found' }));
    const [member] = await tx
      .select({ id: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, ws.id), eq(sql`lower(${users.email})`, email)));
    if (member) throw fieldConflict('already_member', said({ id: 'api.members.alreadyMember', defaultMessage: '{email} is already a member of this workspace' }, { email }));
    const [open] = await tx
      .select({ id: memberInvitations.id, expiresAt: memberInvitations.expiresAt })
      .from(memberInvitations)
      .where(and(eq(memberInvitations.workspaceId, ws.id), eq(sql`lower(${memberInvitations.email})`, email), isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt)));
    if (open && open.expiresAt.getTime() > now.getTime()) throw fieldConflict('already_invited', said({ id: 'api.members.alreadyInvited', defaultMessage: '{email} has been invited already; send the invitation again instead' }, { email }));
    if (open) await tx.update(memberInvitations).set({ revokedAt: now }).where(eq(memberInvitations.id, open.id));
    await refuseOverLimit(services, tx, ws, now);
    const [row] = await tx
      .insert(memberInvitations)
      .values({ id: newId('inv'), workspaceId: ws.id, email, role: input.role, tokenHash: sha256(token), invitedBy: actor.userId, createdAt: now, sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
      .returning();
    await recordActivity(tx, ws.id, now, { kind: 'member.invited', actor: memberActor(actor), subject: { type: 'invitation', id: row!.id, name: email }, detail: { role: input.role } });
    return { row: row!, ws };
  });
  const inviter = await actorProfile(db, actor.userId);
  await mailInvitation(services, email, token, ws, inviter, input.role);
  return toInvitation(row, inviter, now);
}

function fieldConflict(reason: string, message: Sentence) {
  return new ApiError('conflict', message, { reason, fields: [{ path: 'email', message: message.english }] });
}

/** 402 `upgrade_required` when members and open invitations already fill the plan's limit. */
async function refuseOverLimit(services: Pick<Services, 'config' | 'clock'>, tx: Tx, ws: typeof workspaces.$inferSelect, now: Date) {
  const limit = memberLimit(services, ws);
  if (limit === null) return;
  const [{ members }] = (await tx.select({ members: sql<number>`count(*)::int` }).from(memberships).where(eq(memberships.workspaceId, ws.id))) as [{ members: number }];
  const [{ invited }] = (await tx.select({ invited: sql<number>`count(*)::int` }).from(memberInvitations).where(and(eq(memberInvitations.workspaceId, ws.id), openInvitation(now)))) as [
    { invited: number },
  ];
  if (members + invited >= limit) {
    throw new ApiError('upgrade_required', said({ id: 'api.members.memberLimit', defaultMessage: 'This plan allows {limit, plural, one {{count} member} other {{count} members}} (invitations included); upgrade to invite more', description: 'limit and count: the same number' }, { limit, count: String(limit) }), {
      reason: 'member_limit',
      limit,
    });
  }
}

/** Sends an open invitation again with a new link (the old one stops working) and 7 more days. */
export async function resendInvitation(services: Pick<Services, 'db' | 'clock' | 'config' | 'mailer'>, actor: ActingMember, id: string): Promise<MemberInvitation> {
  requireRole(actor, 'admin');
  const { db, clock } = services;
  const now = clock.now();
  const token = randomBase62(32);
  const [row] = await db
    .update(memberInvitations)
    .set({ tokenHash: sha256(token), sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
    .where(and(eq(memberInvitations.id, id), eq(memberInvitations.workspaceId, actor.workspaceId), isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt)))
    .returning();
  if (!row) throw notFound(said({ id: 'api.members.invitationNotFound', defaultMessage: 'Invitation not found' }));
  const [ws] = await db.select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(eq(workspaces.id, actor.workspaceId));
  const inviter = await actorProfile(db, actor.userId);
  await mailInvitation(services, row.email, token, ws!, inviter, row.role);
  return toInvitation(row, inviter, now);
}

/** Revokes an invitation not yet accepted: its link stops working. */
export async function revokeInvitation(services: Pick<Services, 'db' | 'clock'>, actor: ActingMember, id: string): Promise<void> {
  requireRole(actor, 'admin');
  const now = services.clock.now();
  await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(memberInvitations)
      .set({ revokedAt: now })
      .where(and(eq(memberInvitations.id, id), eq(memberInvitations.workspaceId, actor.workspaceId), isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt)))
      .returning({ id: memberInvitations.id, email: memberInvitations.email, role: memberInvitations.role });
    if (!row) throw notFound(said({ id: 'api.members.invitationNotFound', defaultMessage: 'Invitation not found' }));
    await recordActivity(tx, actor.workspaceId, now, { kind: 'member.invitation_revoked', actor: memberActor(actor), subject: { type: 'invitation', id: row.id, name: row.email }, detail: { role: row.role } });
  });
}

/** The invitation a link's token opens, while it is open; 410 `gone` once accepted, revoked or expired; 404 for no invitation. */
export async function openInvitationByToken(db: Pick<Database, 'select'>, token: string, now: Date) {
  const [row] = await db
    .select({ invitation: memberInvitations, workspaceName: workspaces.name, workspaceDisabledAt: workspaces.disabledAt, inviterName: users.name, inviterEmail: users.email })
    .from(memberInvitations)
    .innerJoin(workspaces, eq(workspaces.id, memberInvitations.workspaceId))
    .leftJoin(users, eq(users.id, memberInvitations.invitedBy))
    .where(eq(memberInvitations.tokenHash, sha256(token)));
  if (!row) throw notFound(said({ id: 'api.members.invitationNotFound', defaultMessage: 'Invitation not found' }));
  const inv = row.invitation;
  if (inv.acceptedAt !== null || inv.revokedAt !== null || inv.expiresAt.getTime() <= now.getTime() || row.workspaceDisabledAt !== null) {
    throw new ApiError('gone', said({ id: 'api.members.invitationExpiredUsedAlready', defaultMessage: 'This invitation has expired, was used already or was withdrawn. Ask for a new one.' }), { reason: 'invitation_closed' });
  }
  return row;
}

/** What the join page shows before anyone acts: the workspace, the role, the address and whether it has an account. */
export async function previewInvitation(services: Pick<Services, 'db' | 'clock'>, token: string): Promise<z.output<typeof InvitationPreviewSchema>> {
  const { db, clock } = services;
  const row = await openInvitationByToken(db, token, clock.now());
  const [account] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, row.invitation.email.toLowerCase()));
  return {
    workspace: { name: row.workspaceName },
    email: row.invitation.email,
    role: row.invitation.role,
    invitedBy: row.inviterEmail === null ? null : { name: row.inviterName, email: row.inviterEmail },
    hasAccount: account !== undefined,
    expiresAt: row.invitation.expiresAt.toISOString(),
  };
}

/**
 * Joins the invitation's workspace as the signed-in person, whose address must be the invited one
 * (403 `invitation_for_another_address` otherwise). Returns the workspace joined; joining a
 * workspace one is already in only closes the invitation.
 */
export async function acceptInvitation(services: Pick<Services, 'db' | 'clock'>, person: { userId: string; name: string | null; email: string }, token: string): Promise<{ workspaceId: string; role: MemberRole }> {
  const { db, clock } = services;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const { invitation } = await openInvitationByToken(tx, token, now);
    if (invitation.email.toLowerCase() !== person.email.toLowerCase()) {
      throw new ApiError('forbidden', said({ id: 'api.members.invitationForAnother', defaultMessage: 'This invitation is for {email}: sign in with that address to accept it' }, { email: invitation.email }), { reason: 'invitation_for_another_address' });
    }
    const role = await join(tx, invitation, person, now);
    return { workspaceId: invitation.workspaceId, role };
  });
}

/**
 * A new account for the invited address, joined to the workspace: no workspace of its own (the
 * invitation admits the person, whatever the server's sign-up mode). 409 `email_taken` when the
 * address has an account already (then sign in and accept).
 */
export async function signUpWithInvitation(
  services: Pick<Services, 'db' | 'clock'>,
  input: { token: string; name: string; password: string },
): Promise<{ userId: string; workspaceId: string; role: MemberRole }> {
  const { db, clock } = services;
  const now = clock.now();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('parcel:new-account'))`);
    const { invitation } = await openInvitationByToken(tx, input.token, now);
    const email = invitation.email.toLowerCase();
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email));
    if (taken) {
      throw new ApiError('conflict', said({ id: 'api.members.accountAddressExistsAlready', defaultMessage: 'An account with this address exists already: sign in to accept the invitation' }), { reason: 'email_taken', fields: [{ path: 'email', message: 'An account with this email already exists' }] });
    }
    const userId = newId('usr');
    await tx.insert(users).values({ id: userId, email, name: input.name.trim(), passwordHash, createdAt: now });
    const role = await join(tx, invitation, { userId, name: input.name.trim(), email }, now);
    return { userId, workspaceId: invitation.workspaceId, role };
  });
}

async function join(tx: Tx, invitation: typeof memberInvitations.$inferSelect, person: { userId: string; name: string | null; email: string }, now: Date): Promise<MemberRole> {
  const { userId } = person;
  const joined = await tx
    .insert(memberships)
    .values({ workspaceId: invitation.workspaceId, userId, role: invitation.role, invitedBy: invitation.invitedBy, createdAt: now })
    .onConflictDoNothing()
    .returning({ role: memberships.role });
  if (joined.length > 0) {
    await recordActivity(tx, invitation.workspaceId, now, { kind: 'member.joined', actor: memberActor(person), subject: { type: 'invitation', id: invitation.id, name: invitation.email }, detail: { role: invitation.role } });
  }
  await tx.update(memberInvitations).set({ acceptedAt: now, acceptedBy: userId }).where(eq(memberInvitations.id, invitation.id));
  const [m] = await tx.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.workspaceId, invitation.workspaceId), eq(memberships.userId, userId)));
  return m!.role;
}

/**
 * Makes the person a member of the workspace because they signed in through the identity provider
 * its email domain is tied to (just in time: no invitation); the plan's member limit still holds
 * (402 `member_limit`). Returns their role, an existing member's unchanged.
 */
export async function joinThroughSingleSignOn(
  services: Pick<Services, 'config' | 'clock'>,
  tx: Tx,
  workspaceId: string,
  person: { userId: string; name: string | null; email: string },
  now: Date,
): Promise<MemberRole> {
  // Serialises joins of one workspace, as invitations are, so two at once cannot both pass the limit.
  const [ws] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  if (!ws) throw notFound(said({ id: 'api.members.workspaceNotFound', defaultMessage: 'Workspace not found' }));
  const [existing] = await tx.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, person.userId)));
  if (existing) return existing.role;
  await refuseOverLimit(services, tx, ws, now);
  await tx.insert(memberships).values({ workspaceId: ws.id, userId: person.userId, role: 'member', invitedBy: null, createdAt: now });
  await recordActivity(tx, ws.id, now, { kind: 'member.joined', actor: memberActor(person), detail: { role: 'member', via: 'single_sign_on' } });
  return 'member';
}

/** The target's membership (locked) and who they are, or 404. */
async function otherMember(tx: Pick<Database, 'select'>, workspaceId: string, userId: string) {
  const [m] = await tx
    .select({ role: memberships.role, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .for('update', { of: memberships });
  if (!m) throw notFound(said({ id: 'api.members.memberNotFound', defaultMessage: 'Member not found' }));
  return { ...m, subject: { type: 'member', id: userId, name: m.name ?? m.email } };
}

/** Gives a member another role (admin and owner only; the owner's role changes only by handing ownership over). */
export async function changeRole(services: Pick<Services, 'db' | 'clock'>, actor: ActingMember, userId: string, role: 'admin' | 'member'): Promise<void> {
  requireRole(actor, 'admin');
  await services.db.transaction(async (tx) => {
    const m = await otherMember(tx, actor.workspaceId, userId);
    if (m.role === 'owner') throw new ApiError('conflict', said({ id: 'api.members.ownerSRoleChanges', defaultMessage: 'The owner’s role changes only when they hand ownership to another member' }), { reason: 'owner' });
    await tx.update(memberships).set({ role }).where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    if (m.role !== role) await recordActivity(tx, actor.workspaceId, services.clock.now(), { kind: 'member.role_changed', actor: memberActor(actor), subject: m.subject, detail: { from: m.role, to: role } });
  });
}

/**
 * Takes a person out of the workspace (admin and owner; the owner cannot be removed): their
 * sessions in it, their dashboard tokens and their apps' grants end at once. What they made stays
 * the workspace's, still attributed to them.
 */
export async function removeMember(services: Pick<Services, 'db' | 'clock'>, actor: ActingMember, userId: string): Promise<void> {
  if (userId !== actor.userId) requireRole(actor, 'admin');
  await services.db.transaction(async (tx) => {
    const m = await otherMember(tx, actor.workspaceId, userId);
    if (m.role === 'owner') throw new ApiError('conflict', said({ id: 'api.members.ownerLeaveRemovedHand', defaultMessage: 'The owner cannot leave or be removed: hand ownership to another member first' }), { reason: 'owner' });
    await tx.delete(memberships).where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    await endAccessIn(tx, actor.workspaceId, userId);
    await recordActivity(tx, actor.workspaceId, services.clock.now(), {
      kind: userId === actor.userId ? 'member.left' : 'member.removed',
      actor: memberActor(actor),
      subject: m.subject,
      detail: { role: m.role },
    });
  });
}

/** Ends every credential a person holds in a workspace: sessions (and the tokens minted from them), tokens, OAuth grants. */
async function endAccessIn(tx: Tx, workspaceId: string, userId: string) {
  await tx.delete(sessions).where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.userId, userId)));
  await tx.delete(accessTokens).where(and(eq(accessTokens.workspaceId, workspaceId), eq(accessTokens.userId, userId)));
  await endGrants(tx, eq(oauthStore.accountId, `${workspaceId}/${userId}`));
}

/** The same in every workspace: the operator disabled the person. */
export async function endAccessEverywhere(tx: Tx, userId: string) {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(accessTokens).where(eq(accessTokens.userId, userId));
  // An app's grant is the member's (`<workspace>/<person>`), in each workspace.
  await endGrants(tx, sql`right(${oauthStore.accountId}, ${userId.length + 1}) = ${`/${userId}`}`);
}

/** The OAuth server's grants of the accounts `which` names, with every code and token issued under them. */
async function endGrants(tx: Tx, which: SQL) {
  const grants = await tx.select({ id: oauthStore.id }).from(oauthStore).where(and(eq(oauthStore.model, 'Grant'), which));
  const grantIds = grants.map((g) => g.id);
  await tx.delete(oauthStore).where(grantIds.length > 0 ? or(which, inArray(oauthStore.grantId, grantIds)) : which);
}

/** Hands the workspace to another member (the owner only): they become its owner, the previous owner an admin. */
export async function transferOwnership(services: Pick<Services, 'db' | 'clock'>, actor: ActingMember, userId: string): Promise<void> {
  requireRole(actor, 'owner');
  if (userId === actor.userId) throw new ApiError('conflict', said({ id: 'api.members.youOwnWorkspaceAlready', defaultMessage: 'You own this workspace already' }), { reason: 'owner' });
  await services.db.transaction(async (tx) => {
    const next = await otherMember(tx, actor.workspaceId, userId);
    // One owner at every moment the index checks: the current owner steps down first.
    await tx.update(memberships).set({ role: 'admin' }).where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, actor.userId), eq(memberships.role, 'owner')));
    await tx.update(memberships).set({ role: 'owner' }).where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    await recordActivity(tx, actor.workspaceId, services.clock.now(), { kind: 'workspace.ownership_transferred', actor: memberActor(actor), subject: next.subject, detail: { from: next.role, to: 'owner' } });
  });
}

/**
 * The order of a person's workspaces: as they joined them, and at the same instant (a clock's resolution) the one
 * they made, which nobody invited them to, before one they were invited to.
 */
export const joinedOrder = [asc(memberships.createdAt), sql`${memberships.invitedBy} is null desc`, asc(memberships.workspaceId)] as const;

/** The workspaces a person belongs to (for the switcher), in the order they joined them (the one they made first). */
export async function workspacesOf(db: Pick<Database, 'select'>, userId: string): Promise<WorkspaceChoice[]> {
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, userId), isNull(workspaces.disabledAt)))
    .orderBy(...joinedOrder);
  return rows;
}

/** The tables whose ids the dashboard's pages name, by id prefix. */
const resourceTables = { tr: transfers, col: collections, req: uploadRequests, wh: webhookEndpoints } as const;

/**
 * Which of the person's workspaces holds a transfer, collection, upload request or webhook (a link
 * from another workspace opens there); 404 when none of theirs does, the same as for an id that
 * names nothing, so it tells nobody about a workspace they are not in.
 */
export async function workspaceHolding(db: Pick<Database, 'select'>, userId: string, id: string): Promise<WorkspaceChoice> {
  const table = id.length <= 100 ? resourceTables[id.split('_')[0] as keyof typeof resourceTables] : undefined;
  if (!table) throw notFound(said({ id: 'api.members.resourceNotFound', defaultMessage: 'Resource not found' }));
  const [row] = await db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(table)
    .innerJoin(memberships, and(eq(memberships.workspaceId, table.workspaceId), eq(memberships.userId, userId)))
    .innerJoin(workspaces, and(eq(workspaces.id, table.workspaceId), isNull(workspaces.disabledAt)))
    .where(eq(table.id, id));
  if (!row) throw notFound(said({ id: 'api.members.resourceNotFound', defaultMessage: 'Resource not found' }));
  return row;
}

/**
 * Moves a session to another workspace of its person (404 for one they are not in): the
 * dashboard's tokens of the session end, since each holds the workspace it was minted in.
 */
export async function switchWorkspace(services: Pick<Services, 'db'>, session: { userId: string; sessionHash: string }, workspaceId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const [m] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, session.userId), isNull(workspaces.disabledAt)));
    if (!m) throw notFound(said({ id: 'api.members.workspaceNotFound', defaultMessage: 'Workspace not found' }));
    await tx.update(sessions).set({ workspaceId }).where(eq(sessions.idHash, session.sessionHash));
    await tx.delete(accessTokens).where(and(eq(accessTokens.sessionIdHash, session.sessionHash), ne(accessTokens.workspaceId, workspaceId)));
  });
}
