import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChangePasswordRequestSchema, CompletePasswordResetSchema, SignInRequestSchema, SignUpRequestSchema } from '../../contract/dashboard.js';
import { ApiError } from '../core/errors.js';
import { limitGuesses } from './attempts.js';
import { randomBase62, sha256 } from '../core/secrets.js';
import { passwordResets, sessions, users } from '../db/schema/index.js';
import type { Locale } from '../../contract/locales.js';
import { renderEmail } from '../mail/html.js';
import { mailIntl, mailLocale } from '../mail/intl.js';
import type { Services } from '../services.js';
import { createWorkspaceWithOwner, EmailTakenError, findUserByEmail, findUserById } from '../workspaces/accounts.js';
import { isActiveWorkspace } from '../workspaces/active.js';
import { signupPolicy } from '../workspaces/operator.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { endOtherSessions, type Account, type SignedInUser } from './sessions.js';
import { said } from '../core/sentences.js';

/**
 * Signing up, signing in with a password, changing it, and resetting a forgotten one. `address` is the
 * client's address as the surface sees it: guesses and reset requests are limited per account and
 * per address.
 */

const FIFTEEN_MINUTES = 15 * 60_000;
const RESET_TTL_MS = 30 * 60_000;
const RESET_REQUESTS_PER_WINDOW = 5;

/** Password guesses, at sign-in or when changing a password, per account and per address. */
const passwordAttempts = (services: Pick<Services, 'clock' | 'rateLimits' | 'config'>, email: string, address: string) =>
  limitGuesses(services, [`signin-email:${email}`, `signin-addr:${address}`], said({ id: 'api.auth.tooManyWrongPasswords', defaultMessage: 'Too many wrong passwords; try again later' }));

/**
 * A new account and its workspace, on the operator's default plan, if the server's sign-up mode
 * admits the address (an invitation's token where sign-up is by invitation). Returns the account, to
 * be signed in; 409 `conflict` (`email_taken`, naming `email`) when the address has an account.
 */
export async function signUp(services: Pick<Services, 'db' | 'clock' | 'config'>, input: z.output<typeof SignUpRequestSchema>): Promise<Account> {
  const { db, clock, config } = services;
  const now = clock.now();
  try {
    const { user, workspace } = await createWorkspaceWithOwner(db, now, {
      email: input.email,
      password: input.password,
      workspaceName: input.workspaceName,
      referralCode: input.ref,
      plan: config.DEFAULT_PLAN,
      admit: signupPolicy(config.SIGNUP, input.email, input.invite, now),
    });
    return { user, ws: workspace, role: 'owner' };
  } catch (err) {
    if (err instanceof EmailTakenError) {
      throw new ApiError('conflict', said({ id: 'api.auth.accountEmailAlreadyExists', defaultMessage: 'An account with this email already exists; sign in instead' }), {
        reason: 'email_taken',
        fields: [{ path: 'email', message: 'An account with this email already exists' }],
      });
    }
    throw err;
  }
}

/**
 * The person of a right email and password, or 401 (the same answer, and the same work, for an
 * unknown email). Whether they may sign in anywhere is for the caller to decide.
 */
export async function checkPersonPassword(services: Services, email: string, password: string, address: string): Promise<typeof users.$inferSelect> {
  const attempts = await passwordAttempts(services, email, address);
  const [user] = await services.db.select().from(users).where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash));
  if (!user || !ok) {
    await attempts.failed();
    throw new ApiError('unauthorized', said({ id: 'api.auth.wrongEmailPassword', defaultMessage: 'Wrong email or password' }));
  }
  return user;
}

/**
 * The account of a right email and password, in the workspace a sign-in opens, or 401. A person
 * who belongs to no workspace any more is told so (403 `no_workspace`), once their password is right.
 */
export async function checkPassword(services: Services, input: z.output<typeof SignInRequestSchema>, address: string): Promise<Account> {
  const user = await checkPersonPassword(services, input.email, input.password, address);
  const found = await findUserById(services.db, user.id);
  if (!found) {
    throw new ApiError('forbidden', said({ id: 'api.auth.accountBelongsNoWorkspace', defaultMessage: 'Your account belongs to no workspace any more: ask a workspace’s owner or an admin to invite you again' }), { reason: 'no_workspace' });
  }
  return found;
}

/**
 * Changes the signed-in user's password, given the current one. Every other session of the user
 * ends (and the dashboard tokens minted from them); this one stays signed in.
 */
export async function changePassword(services: Services, user: SignedInUser, input: z.output<typeof ChangePasswordRequestSchema>, address: string) {
  const { db } = services;
  const attempts = await passwordAttempts(services, user.email, address);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.userId));
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    await attempts.failed();
    throw new ApiError('invalid_request', said({ id: 'api.auth.currentPasswordRight', defaultMessage: 'The current password is not right' }), {
      location: 'body',
      fields: [{ path: 'currentPassword', message: 'This is not your current password' }],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.userId));
    await endOtherSessions(tx, user);
  });
}

/**
 * Mails a one-time reset link (30 minutes) to the address when it is an account's, of a workspace
 * not disabled; answers the same either way, so nobody learns who has an account. 429 after five
 * requests for one address, or from one client address, in fifteen minutes. The mail is in the person's own language,
 * else in `pageLocale`, the language of the page that asked (when a page did).
 */
export async function requestPasswordReset(services: Services, email: string, address: string, pageLocale?: Locale) {
  const { db, clock, config, rateLimits, mailer } = services;
  const now = clock.now();
  const buckets = [`reset-email:${email}`, `reset-addr:${address}`];
  const counts = await Promise.all(buckets.map((b) => rateLimits.hit(b, FIFTEEN_MINUTES, now.getTime())));
  if (counts.some(({ count }) => count > RESET_REQUESTS_PER_WINDOW)) {
    const retryAfter = Math.ceil((Math.max(...counts.map((x) => x.resetAtMs)) - now.getTime()) / 1000);
    throw new ApiError('rate_limited', said({ id: 'api.auth.tooManyResetRequests', defaultMessage: 'Too many reset requests; try again later' }), { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  const found = await findUserByEmail(db, email);
  if (!found || !isActiveWorkspace(found.ws)) return;
  const token = randomBase62(32);
  await db.insert(passwordResets).values({ tokenHash: sha256(token), userId: found.user.id, createdAt: now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
  const link = `${config.PUBLIC_URL.replace(/\/$/, '')}/reset-password?token=${token}`;
  const locale = mailLocale(found.user.locale, pageLocale);
  const intl = mailIntl(locale);
  const title = intl.formatMessage({ id: 'mail.passwordReset.heading', defaultMessage: 'Reset your Parcel password' });
  const content = renderEmail({
    locale,
    heading: title,
    paragraphs: [
      intl.formatMessage({ id: 'mail.passwordReset.asked', defaultMessage: 'Someone, hopefully you, asked to reset the password of your Parcel account. The link works once, for 30 minutes.' }),
      intl.formatMessage({ id: 'mail.passwordReset.notYou', defaultMessage: 'If it was not you, ignore this mail: your password stays as it is.' }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.passwordReset.action', defaultMessage: 'Choose a new password' }), url: link },
  });
  await mailer.send({ to: found.user.email, subject: title, text: content.text, html: content.html, tag: 'account.password-reset', workspaceId: found.ws.id });
}

/**
 * Sets a new password with a reset link's token: the token and every other unused one of the user
 * are spent, every session of the user ends. Returns the account, to be signed in; 400 naming
 * `token` when it expired or was used.
 */
export async function completePasswordReset(services: Pick<Services, 'db' | 'clock'>, input: z.output<typeof CompletePasswordResetSchema>): Promise<Account> {
  const { db, clock } = services;
  const now = clock.now();
  const passwordHash = await hashPassword(input.newPassword);
  const userId = await db.transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, sha256(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning();
    if (!reset) return null;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, reset.userId));
    await tx.delete(sessions).where(eq(sessions.userId, reset.userId));
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
    return reset.userId;
  });
  if (!userId) {
    throw new ApiError('invalid_request', said({ id: 'api.auth.resetLinkExpiredUsed', defaultMessage: 'This reset link has expired or was used already. Ask for a new one.' }), {
      location: 'body',
      fields: [{ path: 'token', message: 'expired or used' }],
    });
  }
  const row = await findUserById(db, userId);
  if (!row) throw new ApiError('not_found', said({ id: 'api.auth.accountNoLongerExists', defaultMessage: 'This account no longer exists, or belongs to no workspace' }));
  return row;
}
