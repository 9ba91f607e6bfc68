import { operatorActor } from '../activity/activity.js';
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AdminPerson, AdminWorkspace, Invite, SignupMode, UpdateAdminWorkspaceSchema } from '../../contract/dashboard.js';
import type { z } from 'zod';
import { newId, randomBase62, sha256 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files, memberships, monthlyUsage, signupInvites, transfers, users, workspaces } from '../db/schema/index.js';
import { ApiError, notFound } from '../core/errors.js';
import { renderEmail } from '../mail/html.js';
import { mailIntl, mailLocale } from '../mail/intl.js';
import { contactLanguages, userLocale } from '../mail/languages.js';
import type { Services } from '../services.js';
import { billingOff, effectivePlan, type Billing } from './plan.js';
import { setPlan } from './accounts.js';
import { endAccessEverywhere } from './members.js';
import { said } from '../core/sentences.js';

/**
 * What the operator of a server decides: who may sign up (`SIGNUP`), invitations when sign-up is
 * by invitation, and the workspaces on the server (plan, disabled). The first account created on
 * a server is the operator's (accounts.ts).
 */

const INVITE_TTL_MS = 7 * 86_400_000;

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The valid invitation behind a token, if any. */
async function findInvite(db: Database | Transaction, token: string, now: Date) {
  const [invite] = await db
    .select()
    .from(signupInvites)
    .where(and(eq(signupInvites.tokenHash, sha256(token)), isNull(signupInvites.acceptedAt), gt(signupInvites.expiresAt, now)))
    .limit(1);
  return invite ?? null;
}

export async function invitedAddress(db: Database, token: string | undefined, now: Date): Promise<string | null> {
  if (!token || token.length > 100) return null;
  return (await findInvite(db, token, now))?.email ?? null;
}

/**
 * The sign-up policy, run inside the account's transaction: the first account may always sign up;
 * after it, `closed` refuses and `invite` needs a valid invitation for this very address, which is
 * used up in the same transaction.
 */
export function signupPolicy(mode: SignupMode, email: string, inviteToken: string | undefined, now: Date) {
  return async (tx: Transaction, firstAccount: boolean) => {
    if (firstAccount || mode === 'open') return;
    if (mode === 'closed') {
      throw new ApiError('forbidden', said({ id: 'api.admin.signUpServerClosed', defaultMessage: 'Sign-up on this server is closed. Ask its operator for an account.' }), { reason: 'signup_closed' });
    }
    const invite = inviteToken ? await findInvite(tx, inviteToken, now) : null;
    if (!invite || invite.email.toLowerCase() !== email.toLowerCase()) {
      throw new ApiError('forbidden', said({ id: 'api.admin.signUpServerInvitation', defaultMessage: 'Sign-up on this server is by invitation. Use the link in your invitation, with the address it was sent to.' }), {
        reason: 'invite_required',
      });
    }
    const [claimed] = await tx
      .update(signupInvites)
      .set({ acceptedAt: now })
      .where(and(eq(signupInvites.id, invite.id), isNull(signupInvites.acceptedAt)))
      .returning();
    if (!claimed) throw new ApiError('forbidden', said({ id: 'api.admin.invitationBeenUsedAlready', defaultMessage: 'This invitation has been used already.' }), { reason: 'invite_required' });
  };
}

const toInvite = (row: typeof signupInvites.$inferSelect): Invite => ({
  id: row.id,
  email: row.email,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** Invites an address to sign up: the token goes out by mail, only its hash is kept. */
export async function inviteToSignUp(services: Pick<Services, 'db' | 'clock' | 'config' | 'mailer'>, inviter: { userId: string; workspaceId: string; workspaceName: string }, email: string): Promise<Invite> {
  const { db, clock, config, mailer } = services;
  const now = clock.now();
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase())).limit(1);
  if (taken) throw new ApiError('conflict', said({ id: 'api.admin.addressAlreadyAccount', defaultMessage: 'This address already has an account' }), { reason: 'email_taken', fields: [{ path: 'email', message: 'This address already has an account' }] });
  const token = randomBase62(32);
  const [row] = await db
    .insert(signupInvites)
    .values({ id: newId('inv'), email, tokenHash: sha256(token), invitedBy: inviter.userId, createdAt: now, expiresAt: new Date(now.getTime() + INVITE_TTL_MS) })
    .returning();
  const link = `${config.PUBLIC_URL.replace(/\/$/, '')}/signup?invite=${token}`;
  // The invitee has no account yet: their contact's language in the inviter's address book, else the inviter's own.
  const contacts = await contactLanguages(db, inviter.workspaceId, [email.toLowerCase()]);
  const locale = mailLocale(contacts.get(email.toLowerCase()), await userLocale(db, inviter.userId));
  const intl = mailIntl(locale);
  const content = renderEmail({
    locale,
    heading: intl.formatMessage({ id: 'mail.signupInvited.heading', defaultMessage: 'You are invited to Parcel' }),
    paragraphs: [
      intl.formatMessage(
        { id: 'mail.signupInvited.invites', defaultMessage: '{workspace} invites you to create an account on their Parcel server, to send files by link and email.', description: 'workspace: the inviting workspace\'s name' },
        { workspace: inviter.workspaceName },
      ),
      intl.formatMessage({ id: 'mail.signupInvited.validity', defaultMessage: 'The invitation works once, for this address, for 7 days.' }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.signupInvited.action', defaultMessage: 'Create your account' }), url: link },
  });
  await mailer.send({
    to: email,
    subject: intl.formatMessage({ id: 'mail.signupInvited.subject', defaultMessage: 'Your invitation to Parcel' }),
    text: content.text,
    html: content.html,
    tag: 'signup.invite',
    workspaceId: inviter.workspaceId,
  });
  return toInvite(row!);
}

export async function pendingInvites(db: Database, now: Date): Promise<Invite[]> {
  const rows = await db
    .select()
    .from(signupInvites)
    .where(and(isNull(signupInvites.acceptedAt), gt(signupInvites.expiresAt, now)))
    .orderBy(asc(signupInvites.createdAt));
  return rows.map(toInvite);
}

export async function revokeInvite(db: Database, id: string): Promise<boolean> {
  const deleted = await db.delete(signupInvites).where(and(eq(signupInvites.id, id), isNull(signupInvites.acceptedAt))).returning();
  return deleted.length > 0;
}

/** Every workspace with its owner, plan, transfers, stored bytes and this month's API calls. */
export async function listWorkspaces(db: Database, now: Date, ownWorkspaceId: string, billing: Billing): Promise<AdminWorkspace[]> {
  const month = now.toISOString().slice(0, 7);
  const rows = await db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id));
  const owners = await db
    .select({ workspaceId: memberships.workspaceId, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.role, 'owner'));
  const counts = await db.select({ workspaceId: transfers.workspaceId, n: count() }).from(transfers).groupBy(transfers.workspaceId);
  // Bytes still held: complete files of transfers whose files were not deleted.
  const stored = await db
    .select({ workspaceId: files.workspaceId, bytes: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
    .from(files)
    .innerJoin(transfers, and(eq(files.ownerKind, 'transfer'), eq(transfers.id, files.ownerId)))
    .where(and(eq(files.state, 'complete'), isNull(transfers.purgedAt)))
    .groupBy(files.workspaceId);
  const calls = await db.select().from(monthlyUsage).where(eq(monthlyUsage.month, month));
  const ownerOf = new Map<string, string>();
  for (const o of owners) if (!ownerOf.has(o.workspaceId)) ownerOf.set(o.workspaceId, o.email);
  return rows.map((ws) => ({
    id: ws.id,
    name: ws.name,
    ownerEmail: ownerOf.get(ws.id) ?? null,
    plan: effectivePlan(ws, now, billing),
    planUntil: ws.planUntil && !billingOff(billing) && effectivePlan(ws, now, billing) === 'paid' ? ws.planUntil.toISOString() : null,
    createdAt: ws.createdAt.toISOString(),
    disabled: ws.disabledAt !== null,
    transferCount: counts.find((c) => c.workspaceId === ws.id)?.n ?? 0,
    storageBytes: Number(stored.find((s) => s.workspaceId === ws.id)?.bytes ?? 0),
    apiCallsThisMonth: calls.find((c) => c.workspaceId === ws.id)?.apiCalls ?? 0,
    isOwn: ws.id === ownWorkspaceId,
  }));
}

/** Every person on the server with their workspaces and roles, the earliest account first. */
export async function listPeople(db: Database, operatorId: string): Promise<AdminPerson[]> {
  const people = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.id));
  const places = await db
    .select({ userId: memberships.userId, id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .orderBy(asc(memberships.createdAt));
  return people.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    createdAt: u.createdAt.toISOString(),
    disabled: u.disabledAt !== null,
    isOperator: u.isOperator,
    isYou: u.id === operatorId,
    workspaces: places.filter((p) => p.userId === u.id).map(({ id, name, role }) => ({ id, name, role })),
  }));
}

/**
 * Disables a person everywhere (or enables them again): they can sign in nowhere, and every session,
 * dashboard token and app grant they hold ends now. API keys are their workspaces', not theirs: they
 * keep working. The operator cannot disable their own account.
 */
export async function setPersonDisabled(services: Pick<Services, 'db' | 'clock'>, operator: { userId: string }, userId: string, disabled: boolean): Promise<AdminPerson> {
  if (disabled && userId === operator.userId) throw new ApiError('conflict', said({ id: 'api.admin.youDisableOwnAccount', defaultMessage: 'You cannot disable your own account' }), { reason: 'own_account' });
  await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ disabledAt: disabled ? services.clock.now() : null })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (!row) throw notFound(said({ id: 'api.admin.personNotFound', defaultMessage: 'Person not found' }));
    if (disabled) await endAccessEverywhere(tx, userId);
  });
  const person = (await listPeople(services.db, operator.userId)).find((p) => p.id === userId);
  if (!person) throw notFound(said({ id: 'api.admin.personNotFound', defaultMessage: 'Person not found' }));
  return person;
}

/** Disables or enables a workspace: while disabled, its sign-ins, sessions, keys, links and downloads stop. */
export async function setWorkspaceDisabled(db: Database, workspaceId: string, disabled: boolean, now: Date): Promise<boolean> {
  const updated = await db
    .update(workspaces)
    .set({ disabledAt: disabled ? now : null })
    .where(eq(workspaces.id, workspaceId))
    .returning({ id: workspaces.id });
  return updated.length > 0;
}

/** What the sign-up page needs before anyone signs in: whether this is the first workspace, the sign-up mode, and the invitation's address. */
export async function setupState(services: Pick<Services, 'db' | 'clock' | 'config'>, inviteToken: string | undefined) {
  const { db, clock, config } = services;
  const [any] = await db.select({ id: workspaces.id }).from(workspaces).limit(1);
  const invited = await invitedAddress(db, inviteToken, clock.now());
  return { needsFirstWorkspace: !any, signup: config.SIGNUP, invite: invited ? { email: invited } : null };
}

/**
 * The operator changes a workspace's plan or disables (enables) it, and gets it back as the admin
 * list shows it. Plans cannot change on a server that bills nobody; the operator's own workspace
 * cannot be disabled.
 */
export async function updateWorkspaceAsOperator(
  services: Pick<Services, 'db' | 'clock' | 'config'>,
  operator: { workspaceId: string; userId: string; name: string | null; email: string },
  workspaceId: string,
  input: z.output<typeof UpdateAdminWorkspaceSchema>,
): Promise<AdminWorkspace> {
  const { db, clock, config } = services;
  const now = clock.now();
  if (input.plan !== undefined && billingOff(config)) {
    throw new ApiError('conflict', said({ id: 'api.admin.serverBillsNobodyBilling', defaultMessage: 'This server bills nobody (BILLING=off): every workspace has the paid plan\'s features, and plans cannot be changed' }), { reason: 'billing_off' });
  }
  if (input.disabled === true && workspaceId === operator.workspaceId) {
    throw new ApiError('conflict', said({ id: 'api.admin.youDisableOwnWorkspace', defaultMessage: 'You cannot disable your own workspace' }), { reason: 'own_workspace' });
  }
  if (input.plan !== undefined && !(await setPlan(db, workspaceId, input.plan, null, { actor: operatorActor(operator), at: now }))) throw notFound(said({ id: 'api.admin.workspaceNotFound', defaultMessage: 'Workspace not found' }));
  if (input.disabled !== undefined && !(await setWorkspaceDisabled(db, workspaceId, input.disabled, now))) throw notFound(said({ id: 'api.admin.workspaceNotFound', defaultMessage: 'Workspace not found' }));
  const workspace = (await listWorkspaces(db, now, operator.workspaceId, config)).find((w) => w.id === workspaceId);
  if (!workspace) throw notFound(said({ id: 'api.admin.workspaceNotFound', defaultMessage: 'Workspace not found' }));
  return workspace;
}
