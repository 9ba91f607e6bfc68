import { and, eq, gt } from 'drizzle-orm';
import { randomBase62, sha256 } from '../core/secrets.js';
import { browserChallenges } from '../db/schema/index.js';
import type { Services } from '../services.js';

/**
 * What a browser must answer within minutes (a passkey's challenge, a single sign-on's state and
 * nonce): the browser holds a random token in an HttpOnly cookie, only its hash is stored, and the
 * first answer spends it, right or wrong, so none is answered twice.
 */

export type ChallengePurpose = (typeof browserChallenges.$inferInsert)['purpose'];

/** Keeps `challenge` for `ttlMs`: the token the browser's cookie carries, and that cookie's max-age. */
export async function keepChallenge(
  services: Pick<Services, 'db' | 'clock'>,
  purpose: ChallengePurpose,
  challenge: string,
  options: { userId: string | null; ttlMs: number },
) {
  const token = randomBase62(43);
  const expiresAt = new Date(services.clock.now().getTime() + options.ttlMs);
  await services.db.insert(browserChallenges).values({ tokenHash: sha256(token), purpose, challenge, userId: options.userId, expiresAt });
  return { token, maxAgeSeconds: Math.floor(options.ttlMs / 1000) };
}

/** The challenge of the token, spent; null for none, an expired one, one kept for another purpose, or another person's. */
export async function spendChallenge(services: Pick<Services, 'db' | 'clock'>, purpose: ChallengePurpose, token: string | undefined, userId: string | null): Promise<string | null> {
  if (!token || token.length > 100) return null;
  const [row] = await services.db
    .delete(browserChallenges)
    .where(and(eq(browserChallenges.tokenHash, sha256(token)), gt(browserChallenges.expiresAt, services.clock.now())))
    .returning();
  if (!row || row.purpose !== purpose || row.userId !== userId) return null;
  return row.challenge;
}
