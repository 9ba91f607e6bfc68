import { and, eq, gt, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { CompletePasswordResetSchema, RequestPasswordResetSchema } from '../../contract/dashboard.js';
import { hashPassword } from '../auth/passwords.js';
import { randomBase62, sha256 } from '../core/secrets.js';
import { passwordResets, sessions, users, workspaces } from '../db/schema/index.js';
import type { AppEnv } from '../http/env.js';
import { ApiError } from '../core/errors.js';
import { clientAddress } from '../http/headers.js';
import { parseJsonBody } from '../http/validate.js';
import { renderEmail } from '../mail/html.js';
import { findUserByEmail } from '../workspaces/accounts.js';
import { signInAs } from './session.js';
import { isActiveWorkspace } from '../workspaces/active.js';

const RESET_TTL_MS = 30 * 60_000;
const FIFTEEN_MINUTES = 15 * 60_000;
/** Reset mails asked for per address and per account in 15 minutes, so the form cannot flood an inbox. */
const REQUESTS_PER_WINDOW = 5;

/**
 * /api/dashboard/password-reset: a forgotten password, reset through a single-use link mailed to
 * the account's address and valid 30 minutes. Asking answers the same whether or not the address
 * has an account. Setting the new password ends every session of the account and signs this one in.
 */
export function passwordResetRoutes() {
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    const { email } = await parseJsonBody(c, RequestPasswordResetSchema);
    const { db, clock, config, rateLimits, mailer } = c.var.services;
    const now = clock.now();
    const buckets = [`reset-email:${email}`, `reset-addr:${clientAddress(c, config.TRUST_PROXY)}`];
    const counts = await Promise.all(buckets.map((b) => rateLimits.hit(b, FIFTEEN_MINUTES, now.getTime())));
    if (counts.some(({ count }) => count > REQUESTS_PER_WINDOW)) {
      const retryAfter = Math.ceil((Math.max(...counts.map((x) => x.resetAtMs)) - now.getTime()) / 1000);
      throw new ApiError('rate_limited', 'Too many reset requests; try again later', { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
    }
    const found = await findUserByEmail(db, email);
    if (found && isActiveWorkspace(found.ws)) {
      const token = randomBase62(32);
      await db.insert(passwordResets).values({ tokenHash: sha256(token), userId: found.user.id, createdAt: now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
      const link = `${config.PUBLIC_URL.replace(/\/$/, '')}/reset-password?token=${token}`;
      const content = renderEmail({
        heading: 'Reset your Parcel password',
        paragraphs: [
          'Someone, hopefully you, asked to reset the password of your Parcel account. The link works once, for 30 minutes.',
          'If it was not you, ignore this mail: your password stays as it is.',
        ],
        action: { label: 'Choose a new password', url: link },
      });
      await mailer.send({ to: found.user.email, subject: 'Reset your Parcel password', text: content.text, html: content.html, tag: 'account.password-reset', workspaceId: found.ws.id });
    }
    return c.json({ sent: true }, 202);
  });

  app.post('/complete', async (c) => {
    const input = await parseJsonBody(c, CompletePasswordResetSchema);
    const { db, clock } = c.var.services;
    const now = clock.now();
    const passwordHash = await hashPassword(input.newPassword);
    const userId = await db.transaction(async (tx) => {
      // Claimed and used in one statement: a link works once, even when clicked twice at the same time.
      const [reset] = await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.tokenHash, sha256(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
        .returning();
      if (!reset) return null;
      await tx.update(users).set({ passwordHash }).where(eq(users.id, reset.userId));
      await tx.delete(sessions).where(eq(sessions.userId, reset.userId));
      // Any other reset link of the account stops working too.
      await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
      return reset.userId;
    });
    if (!userId) {
      throw new ApiError('invalid_request', 'This reset link has expired or was used already. Ask for a new one.', {
        location: 'body',
        fields: [{ path: 'token', message: 'expired or used' }],
      });
    }
    const [row] = await db.select({ user: users, ws: workspaces }).from(users).innerJoin(workspaces, eq(workspaces.id, users.workspaceId)).where(eq(users.id, userId));
    if (!row) throw new ApiError('not_found', 'This account no longer exists');
    return signInAs(c, row.user, row.ws);
  });
  return app;
}
