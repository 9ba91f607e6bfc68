import type { Context, Handler, MiddlewareHandler } from 'hono';
import { bearerToken, resolveCallerCountingCall } from '../../auth/credentials.js';
import type { Caller } from '../../core/caller.js';
import { chargeAnonymous, chargeCaller, rateLimitHeaders, type ChargedBucket } from '../../ratelimit/buckets.js';
import type { AppEnv } from '../env.js';
import { ApiError } from '../../core/errors.js';
import { clientAddress, setResponseHeaders } from '../headers.js';
import { oauthResources, protectedResourceMetadataUrl } from '../../oauth/provider.js';
import { said } from '../../core/sentences.js';

/** The API's 401 names its RFC 9728 metadata, where an OAuth client finds how to get a token for it. */
const unauthorized = (publicUrl: string, headers: Record<string, string>) => {
  const metadata = protectedResourceMetadataUrl(oauthResources(publicUrl).api);
  return new ApiError('unauthorized', said({ id: 'api.request.missingInvalidCredentials', defaultMessage: 'Missing or invalid credentials' }), {}, { 'WWW-Authenticate': `Bearer realm="api", resource_metadata="${metadata}"`, ...headers });
};

/**
 * The caller behind the request's bearer credential (null without a valid one) and the rate-limit
 * buckets the request was charged: the credential's own, or its address's when it has none. Over a
 * limit, 429 before anything else.
 */
async function authenticate(c: Context<AppEnv>): Promise<{ caller: Caller | null; headers: () => Record<string, string> }> {
  const services = c.var.services;
  const token = bearerToken(c.req.header('authorization'));
  // A caller resolved in-process (MCP) was not counted by its look-up; chargeCaller counts it.
  const { caller, counted } = c.env?.resolvedCaller
    ? { caller: c.env.resolvedCaller, counted: null }
    : token
      ? await resolveCallerCountingCall(services, token)
      : { caller: null, counted: null };
  const buckets: ChargedBucket[] = caller
    ? await chargeCaller(services, caller, counted)
    : await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
  return { caller, headers: () => rateLimitHeaders(buckets, services.clock.now().getTime()) };
}

/**
 * Authenticates /api/v1 with bearer credentials only (never the dashboard cookie), then charges
 * the rate-limit buckets and reports them on the response, whatever its status.
 * Bad credentials of every kind produce byte-identical 401s and count against the caller's address.
 */
export const bearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { caller, headers } = await authenticate(c);
  if (!caller) throw unauthorized(c.var.services.config.PUBLIC_URL, headers());
  c.set('caller', caller);
  await next();
  setResponseHeaders(c, headers());
};

/**
 * A path under /api/v1 that is no endpoint: `404 not_found` whatever the credential, since the path
 * is what is wrong. It is charged like any request (a valid credential's buckets, else the
 * address's), and carries the RateLimit headers of what it was charged, as every answer past
 * authentication does; so probing unknown paths is no way around the limits.
 */
export const unknownV1Path: Handler<AppEnv> = async (c) => {
  const { headers } = await authenticate(c);
  throw new ApiError('not_found', said({ id: 'api.request.noEndpoint', defaultMessage: 'No endpoint {method} {path}', description: 'method: the HTTP method (GET, POST…); path: the path asked for' }, { method: c.req.method, path: c.req.path }), {}, headers());
};
