import { randomInt } from 'node:crypto';
import { and, count, eq, gt, isNull, or, lt } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { z } from 'zod';
import type { ConfirmIdentityRequestSchema, EnableTwoStepRequestSchema } from '../../contract/security.js';
import { ApiError } from '../core/errors.js';
import { randomBase62, sha256 } from '../core/secrets.js';
import type { Tx } from '../db/connection.js';
import { recoveryCodes, signInChallenges, trustedBrowsers, users } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { accountIn } from '../workspaces/accounts.js';
import { limitGuesses } from './attempts.js';
import { mailSecurityChange } from './security-mail.js';
import { verifyPassword } from './passwords.js';
import { deriveKey, seal, unseal } from './sealing.js';
import { endOtherSessions, type Account, type SignedInUser } from './sessions.js';
import { said } from '../core/sentences.js';

/**
 * Two-step verification with an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, as every
 * app reads it), ten single-use recovery codes, and browsers trusted for 30 days. The shared secret
 * is sealed at rest with a key of its own, bound to the person; a code is accepted once; wrong codes
 * count against the person and the client's address like wrong passwords.
 */

type TwoStepServices = Pick<Services, 'db' | 'clock' | 'config' | 'rateLimits' | 'sealingKey' | 'mailer'>;
type UserRow = typeof users.$inferSelect;

const PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code copied by hand is read back right. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CHALLENGE_TTL_MS = 10 * 60_000;
export const TRUSTED_BROWSER_TTL_MS = 30 * 24 * 3600_000;

const secretKey = (services: Pick<Services, 'sealingKey'>) => deriveKey(services.sealingKey, 'totp-secrets');
const sealContext = (userId: string) => `totp:${userId}`;

function totpFor(secretBase32: string, label = 'Parcel') {
  return new TOTP({ issuer: 'Parcel', label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

const codeGuesses = (services: TwoStepServices, userId: string, address: string) =>
  limitGuesses(services, [`two-step-user:${userId}`, `two-step-addr:${address}`], said({ id: 'api.auth.tooManyWrongCodes', defaultMessage: 'Too many wrong codes; try again later' }));

/** A recovery code as the person may type it back: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

async function replaceRecoveryCodes(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256(normalizeRecoveryCode(code)), createdAt: now })));
  return codes;
}

/** The 30-second step an authenticator code belongs to, or null when it is no code of this secret now (one step of drift either way). */
function codeStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

async function userRow(db: Services['db'], userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new ApiError('unauthorized', said({ id: 'api.auth.signContinue', defaultMessage: 'Sign in to continue' }));
  return row;
}

/**
 * Whether `code` is a current authenticator code or an unused recovery code of the person; either
 * is spent by this check (a code's step, a recovery code's row), so neither works twice.
 */
async function spendSecondFactor(services: TwoStepServices, user: UserRow, code: string): Promise<boolean> {
  const { db, clock } = services;
  const now = clock.now();
  const digits = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(digits)) {
    const secret = user.totpSecret ? unseal(secretKey(services), user.totpSecret, sealContext(user.id)) : null;
    const step = secret ? codeStep(secret, digits, now) : null;
    if (step === null) return false;
    // Conditional, so two requests racing with one code cannot both pass.
    const spent = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return spent.length > 0;
  }
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, sha256(normalizeRecoveryCode(code))), isNull(recoveryCodes.usedAt)))
    .returning({ userId: recoveryCodes.userId });
  return spent.length > 0;
}

export async function twoStepStatus(db: Services['db'], userId: string) {
  const [row] = await db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const enabledAt = row?.enabledAt ?? null;
  return { enabled: enabledAt !== null, enabledAt: enabledAt?.toISOString() ?? null, recoveryCodesLeft: enabledAt ? (left?.n ?? 0) : 0 };
}

/**
 * Starts setting up an authenticator app: a new secret, kept sealed until the person confirms it
 * with a first code (enableTwoStep). 409 when two-step verification is on already.
 */
export async function startTwoStepSetup(services: TwoStepServices, user: SignedInUser) {
  const row = await userRow(services.db, user.userId);
  if (row.totpEnabledAt) throw new ApiError('conflict', said({ id: 'api.auth.twoStepVerificationAlready', defaultMessage: 'Two-step verification is on already; turn it off first to use another app' }), { reason: 'two_step_on' });
  const secret = new Secret({ size: 20 }).base32;
  await services.db.update(users).set({ totpPendingSecret: seal(secretKey(services), secret, sealContext(user.userId)) }).where(eq(users.id, user.userId));
  return { secret, uri: totpFor(secret, user.email).toString() };
}

const wrongPassword = () =>
  new ApiError('invalid_request', said({ id: 'api.auth.passwordRight', defaultMessage: 'The password is not right' }), { location: 'body', fields: [{ path: 'password', message: 'This is not your password' }] });

/**
 * Turns two-step verification on, given the password and a first code of the app being set up:
 * returns ten recovery codes, shown this once. The person's other sessions end.
 */
export async function enableTwoStep(services: TwoStepServices, user: SignedInUser, input: z.output<typeof EnableTwoStepRequestSchema>, address: string) {
  const { db, clock } = services;
  const now = clock.now();
  const guesses = await codeGuesses(services, user.userId, address);
  const row = await userRow(db, user.userId);
  if (row.totpEnabledAt) throw new ApiError('conflict', said({ id: 'api.auth.twoStepVerificationAlready2', defaultMessage: 'Two-step verification is on already' }), { reason: 'two_step_on' });
  const pending = row.totpPendingSecret ? unseal(secretKey(services), row.totpPendingSecret, sealContext(user.userId)) : null;
  if (!pending) throw new ApiError('conflict', said({ id: 'api.auth.startSetupAgainThere', defaultMessage: 'Start the setup again: there is no authenticator app being set up' }), { reason: 'no_setup' });
  if (!(await verifyPassword(input.password, row.passwordHash))) {
    await guesses.failed();
    throw wrongPassword();
  }
  const step = codeStep(pending, input.code, now);
  if (step === null) {
    await guesses.failed();
    throw new ApiError('invalid_request', said({ id: 'api.auth.codeRightCheckTime', defaultMessage: 'That code is not right: check the time on your phone, and use the newest code' }), {
      location: 'body',
      fields: [{ path: 'code', message: 'This code is not right' }],
    });
  }
  const codes = await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: row.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: now, totpLastStep: step })
      .where(eq(users.id, user.userId));
    await tx.delete(trustedBrowsers).where(eq(trustedBrowsers.userId, user.userId));
    await endOtherSessions(tx, user);
    return replaceRecoveryCodes(tx, user.userId, now);
  });
  await mailSecurityChange(services, user, { kind: 'two_step_on' });
  return { recoveryCodes: codes };
}

/** That it is the person: a current code (or a recovery code), or their password; 400 naming the field otherwise. */
async function confirmIdentity(services: TwoStepServices, user: SignedInUser, input: z.output<typeof ConfirmIdentityRequestSchema>, address: string): Promise<UserRow> {
  const guesses = await codeGuesses(services, user.userId, address);
  const row = await userRow(services.db, user.userId);
  if (input.code?.trim()) {
    if (await spendSecondFactor(services, row, input.code.trim())) return row;
    await guesses.failed();
    throw new ApiError('invalid_request', said({ id: 'api.auth.codeRight', defaultMessage: 'That code is not right' }), { location: 'body', fields: [{ path: 'code', message: 'This code is not right' }] });
  }
  if (await verifyPassword(input.password ?? '', row.passwordHash)) return row;
  await guesses.failed();
  throw wrongPassword();
}

/** Turns two-step verification off, with a current code or the password: its secret, recovery codes and trusted browsers go, and the other sessions end. */
export async function disableTwoStep(services: TwoStepServices, user: SignedInUser, input: z.output<typeof ConfirmIdentityRequestSchema>, address: string) {
  await confirmIdentity(services, user, input, address);
  await services.db.transaction(async (tx) => {
    await tx.update(users).set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(users.id, user.userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.userId));
    await tx.delete(trustedBrowsers).where(eq(trustedBrowsers.userId, user.userId));
    await endOtherSessions(tx, user);
  });
  await mailSecurityChange(services, user, { kind: 'two_step_off' });
}

/** Ten new recovery codes in place of the old ones (used or not), with a current code or the password. */
export async function regenerateRecoveryCodes(services: TwoStepServices, user: SignedInUser, input: z.output<typeof ConfirmIdentityRequestSchema>, address: string) {
  const row = await confirmIdentity(services, user, input, address);
  if (!row.totpEnabledAt) throw new ApiError('conflict', said({ id: 'api.auth.twoStepVerificationOff', defaultMessage: 'Two-step verification is off: there are no recovery codes to replace' }), { reason: 'two_step_off' });
  return services.db.transaction(async (tx) => ({ recoveryCodes: await replaceRecoveryCodes(tx, user.userId, services.clock.now()) }));
}

/** Whether signing in as this person asks for a second step. */
export const asksSecondStep = (user: UserRow) => user.totpEnabledAt !== null;

/** Whether the browser's trust cookie is one the person gave, and still valid. */
export async function isTrustedBrowser(services: Pick<Services, 'db' | 'clock'>, userId: string, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const [row] = await services.db
    .select({ userId: trustedBrowsers.userId })
    .from(trustedBrowsers)
    .where(and(eq(trustedBrowsers.tokenHash, sha256(token)), eq(trustedBrowsers.userId, userId), gt(trustedBrowsers.expiresAt, services.clock.now())));
  return row !== undefined;
}

/** Trusts this browser for 30 days: the cookie's value. */
export async function trustBrowser(services: Pick<Services, 'db' | 'clock'>, userId: string): Promise<string> {
  const token = randomBase62(43);
  const now = services.clock.now();
  await services.db.insert(trustedBrowsers).values({ tokenHash: sha256(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + TRUSTED_BROWSER_TTL_MS) });
  return token;
}

/** A sign-in whose password was right, waiting ten minutes for its second step: the cookie's value. */
export async function openSignInChallenge(services: Pick<Services, 'db' | 'clock'>, { user, ws, ssoProviderId }: Account) {
  const token = randomBase62(43);
  const now = services.clock.now();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await services.db.insert(signInChallenges).values({ tokenHash: sha256(token), userId: user.id, workspaceId: ws.id, ssoProviderId: ssoProviderId ?? null, createdAt: now, expiresAt });
  return { token, expiresAt, maxAgeSeconds: CHALLENGE_TTL_MS / 1000 };
}

/**
 * The second step of a sign-in: with the challenge's token (from its cookie) and a code of the
 * person's app or one of their recovery codes, the account to sign in. The challenge is spent
 * only by a right code. 401 `sign_in_expired` for a missing or expired challenge, 400 naming
 * `code` for a wrong code, 429 after too many.
 */
export async function completeSignInChallenge(services: TwoStepServices, token: string | undefined, code: string, address: string): Promise<Account> {
  const { db, clock } = services;
  const [challenge] = token
    ? await db
        .select()
        .from(signInChallenges)
        .where(and(eq(signInChallenges.tokenHash, sha256(token)), gt(signInChallenges.expiresAt, clock.now())))
    : [];
  if (!challenge) throw new ApiError('unauthorized', said({ id: 'api.auth.signExpiredEnterEmail', defaultMessage: 'This sign-in has expired: enter your email and password again' }), { reason: 'sign_in_expired' });
  const guesses = await codeGuesses(services, challenge.userId, address);
  const user = await userRow(db, challenge.userId);
  if (!(await spendSecondFactor(services, user, code))) {
    await guesses.failed();
    throw new ApiError('invalid_request', said({ id: 'api.auth.codeRightUseNewest', defaultMessage: 'That code is not right: use the newest code from your app, or a recovery code' }), {
      location: 'body',
      fields: [{ path: 'code', message: 'This code is not right' }],
    });
  }
  const spent = await db.delete(signInChallenges).where(eq(signInChallenges.tokenHash, challenge.tokenHash)).returning({ userId: signInChallenges.userId });
  if (spent.length === 0) throw new ApiError('unauthorized', said({ id: 'api.auth.signExpiredEnterEmail', defaultMessage: 'This sign-in has expired: enter your email and password again' }), { reason: 'sign_in_expired' });
  const account = await accountIn(db, challenge.userId, challenge.workspaceId);
  if (!account) throw new ApiError('forbidden', said({ id: 'api.auth.accountBelongsNoWorkspace2', defaultMessage: 'Your account belongs to no workspace any more' }), { reason: 'no_workspace' });
  return { ...account, ssoProviderId: challenge.ssoProviderId };
}
