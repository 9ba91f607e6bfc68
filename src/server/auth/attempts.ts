import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import { type Sentence } from '../core/sentences.js';

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * Guesses of a secret (a password, a one-time code) are counted in every bucket given, typically
 * one for the account and one for the client's address, so neither guessing one secret everywhere
 * nor many for one account gets far. Refuses with 429 once any bucket has used up
 * SIGNIN_ATTEMPTS_PER_15_MINUTES; `failed()` counts a wrong guess.
 */
export async function limitGuesses(services: Pick<Services, 'clock' | 'rateLimits' | 'config'>, buckets: string[], refusal: Sentence) {
  const { clock, rateLimits, config } = services;
  const nowMs = clock.now().getTime();
  const counts = await Promise.all(buckets.map((b) => rateLimits.peek(b, FIFTEEN_MINUTES, nowMs)));
  if (counts.some((n) => n >= config.SIGNIN_ATTEMPTS_PER_15_MINUTES)) {
    const retryAfter = Math.ceil((FIFTEEN_MINUTES - (nowMs % FIFTEEN_MINUTES)) / 1000);
    throw new ApiError('rate_limited', refusal, { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  return { failed: () => Promise.all(buckets.map((b) => rateLimits.hit(b, FIFTEEN_MINUTES, nowMs))) };
}
