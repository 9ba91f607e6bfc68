import { and, eq, gt, sql } from 'drizzle-orm';
import { ApiError } from '../core/errors.js';
import { preparedQuery } from '../db/prepared.js';
import { monthlyUsage } from '../db/schema/index.js';
import type { Caller } from '../core/caller.js';
import type { Services } from '../services.js';
import { monthKey, planLimits, startOfNextMonth } from '../workspaces/plan.js';
import { said, type Sentence } from '../core/sentences.js';

/** One limit charged by a request, as reported in the RateLimit and RateLimit-Policy headers. */
export interface ChargedBucket {
  name: string;
  limit: number;
  windowSeconds: number;
  count: number;
  resetAtMs: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The IETF draft fields: `RateLimit-Policy: "name";q=<quota>;w=<window seconds>` and
 * `RateLimit: "name";r=<remaining>;t=<seconds until reset>`, one list member per bucket charged.
 */
export function rateLimitHeaders(buckets: ChargedBucket[], nowMs: number): Record<string, string> {
  if (buckets.length === 0) return {};
  return {
    'RateLimit-Policy': buckets.map((b) => `"${b.name}";q=${b.limit};w=${b.windowSeconds}`).join(', '),
    RateLimit: buckets
      .map((b) => `"${b.name}";r=${Math.max(0, b.limit - b.count)};t=${Math.max(0, Math.ceil((b.resetAtMs - nowMs) / 1000))}`)
      .join(', '),
  };
}

function refuseIfOver(buckets: ChargedBucket[], nowMs: number, message: (b: ChargedBucket) => Sentence): void {
  const over = buckets.filter((b) => b.count > b.limit);
  if (over.length === 0) return;
  // The caller must wait for the latest of the exhausted windows to reset.
  const worst = over.reduce((a, b) => (a.resetAtMs >= b.resetAtMs ? a : b));
  const retryAfter = Math.max(1, Math.ceil((worst.resetAtMs - nowMs) / 1000));
  throw new ApiError(
    'rate_limited',
    message(worst),
    { bucket: worst.name, limit: worst.limit, retryAfterSeconds: retryAfter },
    { 'Retry-After': String(retryAfter), ...rateLimitHeaders(buckets, nowMs) },
  );
}

/** Requests without a valid credential: 60 a minute per address. A valid key never counts here. */
export async function chargeAnonymous(services: Services, address: string): Promise<ChargedBucket[]> {
  const nowMs = services.clock.now().getTime();
  const limit = services.config.RATE_LIMIT_ANONYMOUS_PER_MINUTE;
  const { count, resetAtMs } = await services.rateLimits.hit(`anon:${address}`, MINUTE, nowMs);
  const buckets = [{ name: 'anonymous-minute', limit, windowSeconds: 60, count, resetAtMs }];
  refuseIfOver(buckets, nowMs, () => said({ id: 'api.ratelimit.anonymous', defaultMessage: 'Too many requests without a valid key from this address' }));
  return buckets;
}

/** One on nearly every API call: built once (db/prepared.ts). */
const chargeMonthlyCall = preparedQuery('charge_monthly_call', (db, name) =>
  db
    .insert(monthlyUsage)
    .values({ workspaceId: sql.placeholder('workspaceId'), month: sql.placeholder('month'), apiCalls: 1 })
    .onConflictDoUpdate({ target: [monthlyUsage.workspaceId, monthlyUsage.month], set: { apiCalls: sql`${monthlyUsage.apiCalls} + 1` } })
    .returning({ apiCalls: monthlyUsage.apiCalls })
    .prepare(name),
);

/** Gives back a call counted ahead of its minute and day limits (see chargeCaller) when they refuse it. */
const refundMonthlyCall = preparedQuery('refund_monthly_call', (db, name) =>
  db
    .update(monthlyUsage)
    .set({ apiCalls: sql`${monthlyUsage.apiCalls} - 1` })
    .where(and(eq(monthlyUsage.workspaceId, sql.placeholder('workspaceId')), eq(monthlyUsage.month, sql.placeholder('month')), gt(monthlyUsage.apiCalls, 0)))
    .prepare(name),
);

/** A call already counted against the month's allowance (by the API key's look-up): the month and the count with it. */
export interface CountedCall {
  month: string;
  calls: number;
}

/**
 * A valid credential is charged per key per minute, per workspace per day, and (API keys and OAuth
 * tokens only) against the plan's monthly call allowance. The monthly count lives in PostgreSQL because it is usage that
 * must survive restarts and is reported in `GET /me`. `counted` is the month's count when the
 * credential's look-up already took this call (auth/credentials.ts resolveCallerCountingCall).
 */
export async function chargeCaller(services: Services, caller: Caller, counted: CountedCall | null = null): Promise<ChargedBucket[]> {
  const { config, rateLimits, clock, db } = services;
  const now = clock.now();
  const nowMs = now.getTime();
  const [minute, day] = await Promise.all([
    rateLimits.hit(`key:${caller.credentialId}`, MINUTE, nowMs),
    rateLimits.hit(`ws-day:${caller.workspaceId}`, DAY, nowMs),
  ]);
  const buckets: ChargedBucket[] = [
    { name: 'key-minute', limit: config.RATE_LIMIT_KEY_PER_MINUTE, windowSeconds: 60, ...minute },
    { name: 'workspace-day', limit: config.RATE_LIMIT_WORKSPACE_PER_DAY, windowSeconds: 86_400, ...day },
  ];
  // A call refused by the minute or day limit never reaches the handler, so it does not use the
  // month's allowance either: one counted ahead is given back.
  try {
    refuseIfOver(buckets, nowMs, (b) => said({ id: 'api.ratelimit.exceeded', defaultMessage: 'Rate limit {bucket} exceeded', description: 'bucket: the name of the limit, as in details.bucket (e.g. workspace-minute)' }, { bucket: b.name }));
  } catch (err) {
    if (counted) await refundMonthlyCall(db).execute({ workspaceId: caller.workspaceId, month: counted.month });
    throw err;
  }
  // The dashboard's own session tokens are people clicking through the app: they keep the minute
  // and day limits against abuse, but never use (or show up in) the month's call allowance.
  if (caller.via === 'session') return buckets;
  const usage = counted ? { apiCalls: counted.calls } : (await chargeMonthlyCall(db).execute({ workspaceId: caller.workspaceId, month: monthKey(now) }))[0];
  const monthlyLimit = planLimits(caller.plan, config).monthlyCalls;
  if (monthlyLimit !== null) {
    const resetAtMs = startOfNextMonth(now).getTime();
    const windowSeconds = Math.round((resetAtMs - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) / 1000);
    buckets.push({ name: 'workspace-month', limit: monthlyLimit, windowSeconds, count: usage?.apiCalls ?? 0, resetAtMs });
  }
  refuseIfOver(buckets, nowMs, (b) =>
    b.name === 'workspace-month'
      ? said({ id: 'api.ratelimit.monthlyAllowanceUsed', defaultMessage: 'The monthly call allowance of this plan is used up' })
      : said({ id: 'api.ratelimit.exceeded', defaultMessage: 'Rate limit {bucket} exceeded', description: 'bucket: the name of the limit, as in details.bucket (e.g. workspace-minute)' }, { bucket: b.name }),
  );
  return buckets;
}
