import { verifyPassword } from '../auth/passwords.js';
import { sha256 } from '../core/secrets.js';
import { ApiError } from '../core/errors.js';
import { purposeKey, signToken, verifyToken } from '../downloads/signing.js';
import type { Services } from '../services.js';
import { said } from '../core/sentences.js';

/**
 * Unlock tokens: proof that the caller knew a transfer's (or a collection's) password, valid for an
 * hour. Bound to the id and to its current password hash, so changing the password retires them.
 * Ids carry their kind's prefix (`tr_`, `col_`), so one kind's token never opens another.
 */

export const UNLOCK_TTL_MS = 60 * 60 * 1000;

/** Failed unlock attempts allowed per link and address in a window. */
export const UNLOCK_FAILURES_ALLOWED = 10;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

type TokenServices = Pick<Services, 'cursorKey'>;

/** A short fingerprint of a password hash: what tokens and links carry to stop working when the password changes. */
export const passwordTag = (passwordHash: string) => sha256(passwordHash).slice(0, 16);

export function issueUnlockToken(services: TokenServices, t: { id: string; passwordHash: string }, now: Date) {
  const expiresAt = new Date(now.getTime() + UNLOCK_TTL_MS);
  const token = signToken(purposeKey(services.cursorKey, 'transfer-unlock'), { t: t.id, p: passwordTag(t.passwordHash), e: expiresAt.getTime() });
  return { token, expiresAt };
}

export function unlockTokenValid(services: TokenServices, token: string | undefined, t: { id: string; passwordHash: string }, now: Date): boolean {
  const p = verifyToken(purposeKey(services.cursorKey, 'transfer-unlock'), token) as { t?: unknown; p?: unknown; e?: unknown } | null;
  return !!p && typeof p === 'object' && p.t === t.id && p.p === passwordTag(t.passwordHash) && typeof p.e === 'number' && p.e > now.getTime();
}

const failureKey = (transferId: string, address: string) => `unlock-fail:${transferId}:${address}`;

/** 429 once this address has used up its failed attempts on this link for the window. */
export async function assertUnlockAttemptsLeft(services: Pick<Services, 'rateLimits' | 'clock'>, transferId: string, address: string) {
  const nowMs = services.clock.now().getTime();
  const failures = await services.rateLimits.peek(failureKey(transferId, address), FAILURE_WINDOW_MS, nowMs);
  if (failures < UNLOCK_FAILURES_ALLOWED) return;
  const resetAtMs = (Math.floor(nowMs / FAILURE_WINDOW_MS) + 1) * FAILURE_WINDOW_MS;
  const retryAfter = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  throw new ApiError(
    'rate_limited',
    said({ id: 'api.sharing.tooManyWrongPasswords', defaultMessage: 'Too many wrong passwords for this link from this address; try again later.' }),
    { bucket: 'unlock-failures', limit: UNLOCK_FAILURES_ALLOWED, retryAfterSeconds: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

export async function recordUnlockFailure(services: Pick<Services, 'rateLimits' | 'clock'>, transferId: string, address: string) {
  await services.rateLimits.hit(failureKey(transferId, address), FAILURE_WINDOW_MS, services.clock.now().getTime());
}

/**
 * An unlock token for the right password (at once when there is none: a token keeps the page's
 * flow the same), with failed attempts limited per link and address. One rule for transfers and
 * collections.
 */
export async function unlockWithPassword(
  services: TokenServices & Pick<Services, 'rateLimits' | 'clock'>,
  protectedBy: { id: string; passwordHash: string | null },
  password: string,
  address: string,
  what: 'transfer' | 'collection',
): Promise<{ unlockToken: string; expiresAt: string }> {
  const now = services.clock.now();
  if (protectedBy.passwordHash !== null) {
    await assertUnlockAttemptsLeft(services, protectedBy.id, address);
    if (!(await verifyPassword(password, protectedBy.passwordHash))) {
      await recordUnlockFailure(services, protectedBy.id, address);
      throw new ApiError('wrong_password', what === 'transfer' ? said({ id: 'api.sharing.wrongTransferPassword', defaultMessage: 'That is not the password of this transfer.' }) : said({ id: 'api.sharing.wrongCollectionPassword', defaultMessage: 'That is not the password of this collection.' }));
    }
  }
  const issued = issueUnlockToken(services, { id: protectedBy.id, passwordHash: protectedBy.passwordHash ?? '' }, now);
  return { unlockToken: issued.token, expiresAt: issued.expiresAt.toISOString() };
}
