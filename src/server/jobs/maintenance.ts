import { lt, sql } from 'drizzle-orm';
import { accessTokens, idempotencyKeys, oauthStore, sessions, signInChallenges, trustedBrowsers, browserChallenges } from '../db/schema/index.js';
import type { Services } from '../services.js';

/** Forgets what has expired: sessions, second-step challenges, trusted browsers, dashboard tokens, idempotency keys past their 24 hours, and the OAuth server's expired codes, tokens and grants. */
export async function sweepExpiredCredentials(services: Pick<Services, 'db' | 'clock'>) {
  const now = services.clock.now();
  const [s, t, i, o] = await Promise.all([
    services.db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash }),
    services.db.delete(accessTokens).where(lt(accessTokens.expiresAt, now)).returning({ id: accessTokens.id }),
    services.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key }),
    // The OAuth server times its objects by the real clock (oidc-provider's own), as the adapter stores them.
    services.db.delete(oauthStore).where(lt(oauthStore.expiresAt, sql`now()`)).returning({ id: oauthStore.id }),
  ]);
  await services.db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
  await services.db.delete(trustedBrowsers).where(lt(trustedBrowsers.expiresAt, now));
  await services.db.delete(browserChallenges).where(lt(browserChallenges.expiresAt, now));
  return { sessions: s.length, accessTokens: t.length, idempotencyKeys: i.length, oauth: o.length };
}
