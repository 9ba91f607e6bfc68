import { Hono, type MiddlewareHandler } from 'hono';
import { CreateSessionRequestSchema, UNLOCK_HEADER, UnlockRequestSchema, VISIT_HEADER } from '../../contract/public.js';
import { clientAddress, setResponseHeaders } from '../http/headers.js';
import type { AppEnv } from '../http/env.js';
import { parseJsonBody } from '../http/validate.js';
import { publicCollectionRoutes } from './collections.js';
import { publicRequestRoutes } from './requests.js';
import { chargeAnonymous, rateLimitHeaders } from '../ratelimit/buckets.js';
import type { Services } from '../services.js';
import { assertUnlocked, describeSharedTransfer, openSharedTransfer, startVisit, unlockSharedTransfer } from '../transfers/shared-link.js';

/**
 * The recipient side of a shared transfer link, mounted at `/api/public` (see
 * src/contract/public.ts). No workspace credential is read or accepted here: the slug is the
 * capability, compared only by exact equality, and every request counts against the anonymous
 * per-address limit.
 */

function anonymousLimit(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const buckets = await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
    await next();
    setResponseHeaders(c, { 'Cache-Control': 'no-store', ...rateLimitHeaders(buckets, services.clock.now().getTime()) });
  };
}

/**
 * `/api/public`: what the recipient page calls; the handlers parse, call the shared-link operations
 * (with the request's services, whose log lines carry its id) and answer.
 */
export function publicRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', anonymousLimit(services));
  app.route('/collections', publicCollectionRoutes(services));
  app.route('/requests', publicRequestRoutes(services));

  app.get('/transfers/:slug', async (c) => {
    const { t, workspaceName } = await openSharedTransfer(c.var.services, c.req.param('slug'), c.req.header(VISIT_HEADER));
    assertUnlocked(c.var.services, t, c.req.header(UNLOCK_HEADER));
    return c.json(await describeSharedTransfer(c.var.services, t, workspaceName));
  });

  app.post('/transfers/:slug/unlock', async (c) => {
    const { t } = await openSharedTransfer(c.var.services, c.req.param('slug'));
    const { password } = await parseJsonBody(c, UnlockRequestSchema, { optional: true });
    return c.json(await unlockSharedTransfer(c.var.services, t, password, clientAddress(c, services.config.TRUST_PROXY)));
  });

  app.post('/transfers/:slug/sessions', async (c) => {
    const { t } = await openSharedTransfer(c.var.services, c.req.param('slug'));
    const { recipientToken } = await parseJsonBody(c, CreateSessionRequestSchema, { optional: true });
    assertUnlocked(c.var.services, t, c.req.header(UNLOCK_HEADER));
    return c.json(await startVisit(c.var.services, t, recipientToken), 201);
  });

  return app;
}
