import type { ActivityActor } from '../../contract/activity.js';
import { memberActor, recordActivity } from '../activity/activity.js';
import type { SignedInUser } from '../auth/sessions.js';
import { ApiError } from '../core/errors.js';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.js';
import { newId, randomBase62 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { memberships, users, workspaces } from '../db/schema/index.js';
import type { NotificationSettings } from '../../contract/dashboard.js';
import type { Plan } from './plan.js';
import { referralCodeFrom } from './referrals.js';
import { joinedOrder } from './members.js';
import { said } from '../core/sentences.js';

export class EmailTakenError extends Error {}

export interface NewAccount {
  email: string;
  password: string;
  /** `password` hashed already (hashPassword): test fixtures make thousands of accounts with one password, hashed once. */
  passwordHash?: string;
  workspaceName: string;
  /**
   * The plan of a workspace other than the server's first (default free). The first is its
   * operator's and starts on the paid plan with no end date, unless `firstAccountPlan` says otherwise.
   */
  plan?: Plan;
  planUntil?: Date | null;
  /** An operator's explicit choice for the first account (`admin bootstrap --plan free`). */
  firstAccountPlan?: Plan;
  /** From a referral link, as typed: unknown or malformed codes are ignored (see referralCodeFrom). */
  referralCode?: string;
  /**
   * Runs inside the transaction before anything is written, told whether this is the server's
   * first account: it may refuse (throw), e.g. when sign-up needs an invitation it claims there.
   */
  admit?: (tx: Transaction, firstAccount: boolean) => Promise<void>;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Creates a workspace on the free plan (unless told otherwise) together with its owner. The first
 * account created on a server is its operator's, on the paid plan with no end date (an operator
 * should not meet an upsell on their own server); concurrent first sign-ups are serialised, so
 * there is only ever one.
 */
export async function createWorkspaceWithOwner(db: Database, now: Date, input: NewAccount) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('parcel:new-account'))`);
    const firstAccount = (await tx.select({ id: users.id }).from(users).limit(1)).length === 0;
    await input.admit?.(tx, firstAccount);
    const taken = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email)).limit(1);
    if (taken.length > 0) throw new EmailTakenError(email);
    // The new workspace's own code does not exist yet, so no workspace can be recorded as referring itself.
    const referralCode = referralCodeFrom(input.referralCode);
    const referrer = referralCode
      ? (await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.referralCode, referralCode)).limit(1))[0]
      : undefined;
    const plan = firstAccount ? (input.firstAccountPlan ?? 'paid') : (input.plan ?? 'free');
    const [workspace] = await tx
      .insert(workspaces)
      .values({
        id: newId('ws'),
        name: input.workspaceName.trim(),
        plan,
        planUntil: plan === 'paid' ? (input.planUntil ?? null) : null,
        everPaid: plan === 'paid',
        referralCode: randomBase62(10).toUpperCase(),
        referredBy: referrer?.id ?? null,
        createdAt: now,
      })
      .returning();
    const [user] = await tx
      .insert(users)
      .values({ id: newId('usr'), email, passwordHash, isOperator: firstAccount, createdAt: now })
      .returning();
    await tx.insert(memberships).values({ workspaceId: workspace!.id, userId: user!.id, role: 'owner', createdAt: now });
    return { workspace: workspace!, user: user! };
  });
}

/**
 * The account with this address and the workspace a sign-in opens: the first of theirs the person
 * joined (the one they made, while they are still in it, as they joined it when they made it). Null without an account, or for a person who
 * belongs to no workspace any more.
 */
export async function findUserByEmail(db: Database, email: string) {
  return accountWhere(db, eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
}

/** The same for a known person (after a password reset). */
export async function findUserById(db: Database, userId: string) {
  return accountWhere(db, eq(users.id, userId));
}

/** The person's account in this workspace (after joining it), or null when they are not a member. */
export async function accountIn(db: Database, userId: string, workspaceId: string) {
  return accountWhere(db, and(eq(users.id, userId), eq(memberships.workspaceId, workspaceId))!);
}

async function accountWhere(db: Database, condition: SQL) {
  const [row] = await db
    .select({ user: users, ws: workspaces, role: memberships.role })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(condition)
    .orderBy(...joinedOrder)
    .limit(1);
  return row ?? null;
}

/** Gives the workspace a plan (paid until `until`, or until changed); a change is in its activity log, naming who made it. */
export async function setPlan(db: Database, workspaceId: string, plan: Plan, until: Date | null, by: { actor: ActivityActor; at: Date }) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ plan: workspaces.plan, planUntil: workspaces.planUntil }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
    if (!before) return null;
    const planUntil = plan === 'paid' ? until : null;
    const [ws] = await tx
      .update(workspaces)
      .set({ plan, planUntil, ...(plan === 'paid' ? { everPaid: true } : {}) })
      .where(eq(workspaces.id, workspaceId))
      .returning();
    if (before.plan !== plan || before.planUntil?.getTime() !== planUntil?.getTime()) {
      await recordActivity(tx, workspaceId, by.at, {
        kind: 'workspace.plan_changed',
        actor: by.actor,
        subject: { type: 'workspace', id: workspaceId, name: ws!.name },
        detail: { from: before.plan, to: plan, until: planUntil?.toISOString() ?? null },
      });
    }
    return ws!;
  });
}

/**
 * What a workspace can require of everyone in it (docs/security.md): how a person meets it, and the
 * refusal (409) of requiring it from someone who does not, so an owner or admin never locks
 * themselves out.
 */
const requirements = {
  two_step: {
    column: workspaces.requireTwoStep,
    set: (required: boolean) => ({ requireTwoStep: required }),
    kind: 'workspace.two_step_requirement_changed',
    met: (user: SignedInUser) => user.twoStepOn,
    refusal: () => new ApiError('conflict', said({ id: 'api.workspaces.turnTwoStepVerification', defaultMessage: 'Turn on two-step verification for yourself first: requiring it would lock you out' }), { reason: 'two_step_off' }),
  },
  single_sign_on: {
    column: workspaces.requireSingleSignOn,
    set: (required: boolean) => ({ requireSingleSignOn: required }),
    kind: 'workspace.single_sign_on_requirement_changed',
    met: (user: SignedInUser) => user.singleSignOnSatisfied,
    refusal: () => new ApiError('conflict', said({ id: 'api.workspaces.signThroughWorkspaceS', defaultMessage: 'Sign in through your workspace’s identity provider first: requiring it would lock you out' }), { reason: 'single_sign_on_off' }),
  },
} as const;

export type WorkspaceRequirement = keyof typeof requirements;

/**
 * Requires two-step verification (or single sign-on) of everyone in the workspace, or stops
 * requiring it; recorded in its activity log. Requiring it is refused until the person asking meets it.
 */
export async function setWorkspaceRequirement(db: Database, user: SignedInUser, which: WorkspaceRequirement, required: boolean, at: Date) {
  const requirement = requirements[which];
  if (required && !requirement.met(user)) throw requirement.refusal();
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ required: requirement.column }).from(workspaces).where(eq(workspaces.id, user.workspaceId)).for('update');
    if (!before || before.required === required) return;
    await tx.update(workspaces).set(requirement.set(required)).where(eq(workspaces.id, user.workspaceId));
    await recordActivity(tx, user.workspaceId, at, { kind: requirement.kind, actor: memberActor(user), detail: { required } });
  });
}

export async function renameWorkspace(db: Pick<Database, 'update'>, workspaceId: string, name: string) {
  await db.update(workspaces).set({ name }).where(eq(workspaces.id, workspaceId));
}

/** Which mails the workspace gets about its transfers (contract: NotificationSettingsSchema). */
export async function notificationSettings(db: Pick<Database, 'select'>, workspaceId: string): Promise<NotificationSettings> {
  const [row] = await db
    .select({ downloads: workspaces.notifyDownloads, beforeExpiry: workspaces.notifyBeforeExpiry })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row ?? { downloads: true, beforeExpiry: true };
}

export async function updateNotificationSettings(db: Pick<Database, 'select' | 'update'>, workspaceId: string, input: Partial<NotificationSettings>): Promise<NotificationSettings> {
  await db
    .update(workspaces)
    .set({
      ...(input.downloads !== undefined ? { notifyDownloads: input.downloads } : {}),
      ...(input.beforeExpiry !== undefined ? { notifyBeforeExpiry: input.beforeExpiry } : {}),
    })
    .where(eq(workspaces.id, workspaceId));
  return notificationSettings(db, workspaceId);
}
