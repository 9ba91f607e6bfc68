import { lt } from 'drizzle-orm';
import { accessTokens, idempotencyKeys, sessions } from '../db/schema/index.js';
import type { Services } from '../services.js';

/** Forgets what has expired: sessions, dashboard tokens, idempotency keys past their 24 hours. */
export async function sweepExpiredCredentials(services: Pick<Services, 'db' | 'clock'>) {
  const now = services.clock.now();
  const [s, t, i] = await Promise.all([
    services.db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash }),
    services.db.delete(accessTokens).where(lt(accessTokens.expiresAt, now)).returning({ id: accessTokens.id }),
    services.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key }),
  ]);
  return { sessions: s.length, accessTokens: t.length, idempotencyKeys: i.length };
}
