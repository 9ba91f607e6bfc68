import { and, eq, lte, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { idempotencyKeys } from '../../db/schema/index.js';
import { seal, unseal } from '../../auth/sealing.js';
import { sha256 } from '../../core/secrets.js';
import type { AppEnv } from '../env.js';
import { ApiError } from '../../core/errors.js';
import { said } from '../../core/sentences.js';

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim still "running" after this long was left by a crashed request and may be taken over. */
const CLAIM_LEASE_MS = 60_000;

type Row = typeof idempotencyKeys.$inferSelect;

/**
 * The spec's six Idempotency-Key rules for POST. A row per (workspace, key) is claimed with an
 * INSERT … ON CONFLICT DO NOTHING, so of any number of identical requests arriving together exactly
 * one runs; the others see the claim and answer 409, or replay once it has succeeded.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST') return next();
  const key = c.req.header('idempotency-key');
  if (key === undefined) return next();
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', said({ id: 'api.idempotency.idempotencyKeyMust1', defaultMessage: 'Idempotency-Key must be 1 to 255 printable ASCII characters with no spaces' }), {
      fields: [{ path: 'Idempotency-Key', message: 'must match [!-~]{1,255}' }],
      location: 'header',
    });
  }
  const { db, clock, sealingKey, log } = c.var.services;
  const workspaceId = c.var.caller.workspaceId;
  const body = await c.req.text();
  const requestHash = sha256(`${c.req.method}\n${new URL(c.req.url).pathname}\n${body}`);
  const now = clock.now();
  const where = and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key));
  // The sealed response opens only for this workspace, key and request.
  const sealingContext = `${workspaceId}\n${key}\n${requestHash}`;

  const claim = async () =>
    (
      await db
        .insert(idempotencyKeys)
        .values({
          workspaceId,
          key,
          requestHash,
          state: 'running',
          lockedUntil: new Date(now.getTime() + CLAIM_LEASE_MS),
          createdAt: now,
          expiresAt: new Date(now.getTime() + RETENTION_MS),
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key })
    ).length === 1;

  let claimed = await claim();
  if (!claimed) {
    // A key forgotten after 24 hours may be used afresh.
    await db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.expiresAt, now)));
    claimed = await claim();
  }
  if (!claimed) {
    const [existing] = await db.select().from(idempotencyKeys).where(where);
    if (!existing) throw inProgress();
    if (existing.requestHash !== requestHash) {
      throw new ApiError('conflict', said({ id: 'api.idempotency.idempotencyKeyAlreadyUsed', defaultMessage: 'This Idempotency-Key was already used with a different method, path or body' }), {
        reason: 'idempotency_key_reused',
      });
    }
    if (existing.state === 'done') {
      const body = existing.responseSealed === null ? '' : unseal(sealingKey, existing.responseSealed, sealingContext);
      if (body !== null) return replay(existing, body);
      // Sealed under another SERVER_SECRET: the response cannot be replayed, so the key starts afresh.
      log.warn({ workspaceId }, 'remembered idempotent response could not be unsealed; running the request again');
      await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.state, 'done')));
      if (!(await claim())) throw inProgress();
    } else {
      const takenOver = await db
        .update(idempotencyKeys)
        .set({ lockedUntil: new Date(now.getTime() + CLAIM_LEASE_MS) })
        .where(and(where, eq(idempotencyKeys.state, 'running'), lte(idempotencyKeys.lockedUntil, now)))
        .returning({ key: idempotencyKeys.key });
      if (takenOver.length === 0) throw inProgress();
    }
  }

  await next();

  if (c.res.status >= 200 && c.res.status < 300) {
    const headers: Record<string, string> = {};
    c.res.headers.forEach((v, k) => {
      if (k !== 'set-cookie') headers[k] = v;
    });
    await db
      .update(idempotencyKeys)
      .set({
        state: 'done',
        responseStatus: c.res.status,
        responseHeaders: headers,
        responseSealed: seal(sealingKey, await c.res.clone().text(), sealingContext),
      })
      .where(where);
  } else {
    // Only successes are remembered; a failed request may be sent again with the same key.
    await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.state, sql`'running'`)));
  }
};

function inProgress() {
  return new ApiError('conflict', said({ id: 'api.idempotency.requestIdempotencyKeyStill', defaultMessage: 'A request with this Idempotency-Key is still being processed' }), { reason: 'idempotency_in_progress' }, { 'Retry-After': '1' });
}

function replay(row: Row, body: string): Response {
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set('Idempotent-Replayed', 'true');
  return new Response(body, { status: row.responseStatus ?? 200, headers });
}
