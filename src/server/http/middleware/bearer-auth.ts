import type { MiddlewareHandler } from 'hono';
import { bearerToken, resolveCaller } from '../../auth/credentials.js';
import { chargeAnonymous, chargeCaller, rateLimitHeaders, type ChargedBucket } from '../../ratelimit/buckets.js';
import type { AppEnv } from '../env.js';
import { ApiError } from '../../core/errors.js';
import { clientAddress, setResponseHeaders } from '../headers.js';

const unauthorized = (headers: Record<string, string>) =>
  new ApiError('unauthorized', 'Missing or invalid credentials', {}, { 'WWW-Authenticate': 'Bearer realm="api"', ...headers });

/**
 * Authenticates /api/v1 with bearer credentials only (never the dashboard cookie), then charges
 * the rate-limit buckets and reports them on the response, whatever its status.
 * Bad credentials of every kind produce byte-identical 401s and count against the caller's address.
 */
export const bearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const services = c.var.services;
  const token = bearerToken(c.req.header('authorization'));
  const caller = token ? await resolveCaller(services, token) : null;
  let buckets: ChargedBucket[];
  if (!caller) {
    buckets = await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
    throw unauthorized(rateLimitHeaders(buckets, services.clock.now().getTime()));
  }
  buckets = await chargeCaller(services, caller);
  c.set('caller', caller);
  await next();
  setResponseHeaders(c, rateLimitHeaders(buckets, services.clock.now().getTime()));
};
