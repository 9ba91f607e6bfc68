import { lt, sql } from 'drizzle-orm';
import { accessTokens, idempotencyKeys, oauthStore, sessions, signInChallenges, trustedBrowsers, browserChallenges } from '../db/schema/index.js';
import type { Services } from '../services.js';

/** Forgets what has expired: sessions, second-step challenges, trusted browsers, dashboard tokens, idempotency keys past their 24 hours, and the OAuth server's expired codes, tokens and grants. */
export async function sweepExpiredCredentials(services: Pick<Services, 'db' | 'clock'>) {
  const now = services.clock.now();
  // One after the other: deleting a session deletes its dashboard tokens too (a foreign key), and two deletes of the
  // same tokens at once, from either side, can wait on each other until PostgreSQL ends one as a deadlock.
  const s = await services.db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash });
  const t = await services.db.delete(accessTokens).where(lt(accessTokens.expiresAt, now)).returning({ id: accessTokens.id });
  const i = await services.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  // The OAuth server times its objects by the real clock (oidc-provider's own), as the adapter stores them.
  const o = await services.db.delete(oauthStore).where(lt(oauthStore.expiresAt, sql`now()`)).returning({ id: oauthStore.id });
  await services.db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
  await services.db.delete(trustedBrowsers).where(lt(trustedBrowsers.expiresAt, now));
  await services.db.delete(browserChallenges).where(lt(browserChallenges.expiresAt, now));
  return { sessions: s.length, accessTokens: t.length, idempotencyKeys: i.length, oauth: o.length };
}
