import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  COLLECTION_UNLOCK_HEADER,
  CollectionUnlockRequestSchema,
  GuestSessionRequestSchema,
  GuestSignInRequestSchema,
  PublicCollectionDownloadLinksQuerySchema,
  PublicCollectionFilesQuerySchema,
} from '../../contract/public-collections.js';
import { GUEST_COOKIE, GUEST_SESSION_TTL_MS, visitorAccess } from '../collections/access.js';
import { collectionUrl } from '../collections/collections.js';
import { workspaceOfDomain } from '../collections/custom-link.js';
import { redeemGuestSignIn, requestGuestSignIn, type SharedCollection } from '../collections/guests.js';
import {
  describeSharedCollection,
  isSlugShaped,
  openSharedCollection,
  pageOfSharedFiles,
  sharedDownloadLinks,
  unlockSharedCollection,
} from '../collections/shared-link.js';
import { notFound } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress, hostnameOf, requestHost, requestOrigin } from '../http/headers.js';
import { parseJsonBody, parseQuery } from '../http/validate.js';
import type { Services } from '../services.js';

/**
 * The visitor side of a collection's secret link, mounted at `/api/public/collections` inside the
 * public API (so the anonymous per-address limit and `no-store` apply); see
 * src/contract/public-collections.ts. No workspace credential is read here. Every read resolves the
 * visitor's access afresh from what they hold (guest cookie, unlock header), so a removed guest or a
 * change of visibility or password takes effect on their very next request.
 */

/** The guest cookie is sent only to this one collection's API, so a guest of one collection carries nothing to another. */
const guestCookiePath = (slug: string) => `/api/public/collections/${slug}`;

/**
 * Where a visitor reads the collection: the service's own host (or any host that is nobody's domain, where the app's
 * pages are served too), or a workspace's own domain. There, only that workspace's collections with `customLink` on
 * exist, and every signed URL and sign-in link is on that domain: its page's CSP and the previews' CORP take only
 * their own origin, and a guest's cookie is set on the host they sign in on.
 */
interface VisitorSite {
  /** The workspace whose domain this is; null on the service's own host. */
  workspaceId: string | null;
  origin: string;
  pageUrl: (slug: string) => string;
}

export function publicCollectionRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const { PUBLIC_URL, TRUST_PROXY } = services.config;
  const ownHost = hostnameOf(PUBLIC_URL);
  const ownSite: VisitorSite = { workspaceId: null, origin: PUBLIC_URL, pageUrl: (slug) => collectionUrl(PUBLIC_URL, slug) };

  // Only hosts other than PUBLIC_URL's can be a workspace's domain (admin `domain set` refuses it), so the own host costs no query.
  async function siteOf(c: Context<AppEnv>): Promise<VisitorSite> {
    const host = requestHost(c, TRUST_PROXY);
    if (host === null || host === ownHost) return ownSite;
    const workspaceId = await workspaceOfDomain(services.db, host);
    const origin = requestOrigin(c, TRUST_PROXY, new URL(PUBLIC_URL).protocol);
    return workspaceId && origin ? { workspaceId, origin, pageUrl: (slug) => `${origin}/${slug}` } : ownSite;
  }

  const open = async (c: Context<AppEnv>) => {
    const site = await siteOf(c);
    return { site, shared: await openSharedCollection(c.var.services, c.req.param('slug') ?? '', site.workspaceId) };
  };
  const accessOf = (c: Context<AppEnv>, shared: SharedCollection) =>
    visitorAccess(c.var.services, shared.c, { guestSession: getCookie(c, GUEST_COOKIE), unlockToken: c.req.header(COLLECTION_UNLOCK_HEADER) });

  app.get('/:slug', async (c) => {
    const { site, shared } = await open(c);
    return c.json(await describeSharedCollection(c.var.services, shared, await accessOf(c, shared), site.origin));
  });

  app.get('/:slug/files', async (c) => {
    const { site, shared } = await open(c);
    await accessOf(c, shared);
    return c.json(await pageOfSharedFiles(c.var.services, shared.c, parseQuery(c, PublicCollectionFilesQuerySchema), site.origin));
  });

  app.get('/:slug/download-links', async (c) => {
    const { site, shared } = await open(c);
    const access = await accessOf(c, shared);
    const { folderId } = parseQuery(c, PublicCollectionDownloadLinksQuerySchema);
    return c.json(await sharedDownloadLinks(c.var.services, shared.c, folderId, access, site.origin));
  });

  app.post('/:slug/unlock', async (c) => {
    const { shared } = await open(c);
    const { password } = await parseJsonBody(c, CollectionUnlockRequestSchema);
    return c.json(await unlockSharedCollection(c.var.services, shared.c, password, clientAddress(c, services.config.TRUST_PROXY)));
  });

  app.post('/:slug/guest-sign-in', async (c) => {
    const { site, shared } = await open(c);
    const { email } = await parseJsonBody(c, GuestSignInRequestSchema);
    // Answered before the lookup and the mail: a guest's request takes no longer than a stranger's.
    void requestGuestSignIn(c.var.services, shared, email, site.pageUrl(shared.c.slug)).catch((err: unknown) =>
      c.var.services.log.error({ err, collectionId: shared.c.id }, 'guest sign-in request failed'),
    );
    return c.json({ sent: true }, 202);
  });

  app.post('/:slug/guest-session', async (c) => {
    const { shared } = await open(c);
    const { token } = await parseJsonBody(c, GuestSessionRequestSchema);
    const { email, session } = await redeemGuestSignIn(c.var.services, shared.c, token);
    setCookie(c, GUEST_COOKIE, session.token, {
      path: guestCookiePath(shared.c.slug),
      httpOnly: true,
      sameSite: 'Lax',
      secure: services.config.PUBLIC_URL.startsWith('https:'),
      maxAge: Math.floor(GUEST_SESSION_TTL_MS / 1000),
    });
    return c.json({ email, expiresAt: session.expiresAt.toISOString() });
  });

  // Signing out always works, whatever became of the collection: it only clears this browser's cookie.
  app.delete('/:slug/guest-session', (c) => {
    const slug = c.req.param('slug');
    if (!isSlugShaped(slug)) throw notFound('Collection');
    deleteCookie(c, GUEST_COOKIE, { path: guestCookiePath(slug), secure: services.config.PUBLIC_URL.startsWith('https:') });
    return c.body(null, 204);
  });

  return app;
}
