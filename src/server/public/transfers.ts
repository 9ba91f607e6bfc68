import type { MiddlewareHandler } from 'hono';
import {
  CreateSessionRequestSchema,
  DownloadSessionSchema,
  PublicTransferSchema,
  UNLOCK_HEADER,
  UnlockRequestSchema,
  UnlockResponseSchema,
  VISIT_HEADER,
} from '../../contract/public.js';
import { clientAddress, setResponseHeaders } from '../http/headers.js';
import type { AppEnv } from '../http/env.js';
import { Surface, type AuthKind } from '../http/surface.js';
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

/** The public pages' one auth kind: whoever holds the link (no credential is read). */
const publicAuth = {
  link: { middleware: [], description: 'Anyone with the link: its slug is the capability. No credential is read; counted against the anonymous per-address limit.', security: [] },
} satisfies Record<string, AuthKind>;

export type PublicSurface = Surface<keyof typeof publicAuth>;

/**
 * `/api/public`: what the recipient, collection and upload-request pages call; the handlers call
 * the shared-link operations (with the request's services, whose log lines carry its id) and answer.
 */
export function publicRoutes(services: Services) {
  const surface = Surface.create(publicAuth).use(anonymousLimit(services));
  publicCollectionRoutes(surface.group('/collections'), services);
  publicRequestRoutes(surface.group('/requests'), services);

  surface
    .route(
      { method: 'get', path: '/transfers/:slug', auth: 'link', summary: 'A shared transfer, as its page shows it', success: { status: 200, schema: PublicTransferSchema } },
      async (c, { params }) => {
        const { t, workspaceName } = await openSharedTransfer(c.var.services, params.slug, c.req.header(VISIT_HEADER));
        assertUnlocked(c.var.services, t, c.req.header(UNLOCK_HEADER));
        return c.json(await describeSharedTransfer(c.var.services, t, workspaceName));
      },
    )
    .route(
      {
        method: 'post',
        path: '/transfers/:slug/unlock',
        auth: 'link',
        summary: "Unlock a password-protected transfer's page",
        body: UnlockRequestSchema,
        optionalBody: true,
        success: { status: 200, schema: UnlockResponseSchema },
      },
      async (c, { params, body }) => {
        const { t } = await openSharedTransfer(c.var.services, params.slug);
        return c.json(await unlockSharedTransfer(c.var.services, t, body.password, clientAddress(c, services.config.TRUST_PROXY)));
      },
    )
    .route(
      {
        method: 'post',
        path: '/transfers/:slug/sessions',
        auth: 'link',
        summary: 'Start a visit: its download links (counted, with receipts)',
        body: CreateSessionRequestSchema,
        optionalBody: true,
        success: { status: 201, schema: DownloadSessionSchema },
      },
      async (c, { params, body }) => {
        const { t } = await openSharedTransfer(c.var.services, params.slug);
        assertUnlocked(c.var.services, t, c.req.header(UNLOCK_HEADER));
        return c.json(await startVisit(c.var.services, t, body.recipientToken), 201);
      },
    )
    .serveDocument({ title: 'Parcel public pages API', description: "What the public pages (a transfer's, a collection's, an upload request's) call. Internal: it changes with the app.", mount: '/api/public' });
  return surface.app;
}
