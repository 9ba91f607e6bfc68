import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  COLLECTION_UNLOCK_HEADER,
  CollectionUnlockRequestSchema,
  CollectionUnlockResponseSchema,
  GuestSessionRequestSchema,
  GuestSessionSchema,
  GuestSignInRequestSchema,
  GuestSignInSentSchema,
  GuestUploadRequestSchema,
  PublicCollectionDownloadLinksQuerySchema,
  PublicCollectionFilePageSchema,
  PublicCollectionFilesQuerySchema,
  PublicCollectionSchema,
} from '../../contract/public-collections.js';
import { GUEST_COOKIE, GUEST_SESSION_TTL_MS, visitorAccess } from '../collections/access.js';
import { collectionUrl } from '../collections/collections.js';
import { workspaceOfDomain } from '../collections/custom-link.js';
import { redeemGuestSignIn, requestGuestSignIn, type SharedCollection } from '../collections/guests.js';
import { readerLanguage } from '../http/reader-language.js';
import {
  describeSharedCollection,
  isSlugShaped,
  openSharedCollection,
  pageOfSharedFiles,
  sharedDownloadLinks,
  unlockSharedCollection,
} from '../collections/shared-link.js';
import { ApiError, notFound } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress, hostnameOf, requestHost, requestOrigin } from '../http/headers.js';
import type { Services } from '../services.js';
import { AddFilesResponseSchema, DownloadLinksSchema } from '../../contract/transfers.js';
import { addGuestFiles } from '../collections/contributions.js';
import { addComment, commentsOf, reviewerOfVisitor, setReview } from '../collections/review.js';
import { CommentListSchema, CommentResponseSchema, CreateCommentRequestSchema, ReviewResponseSchema, SetReviewRequestSchema } from '../../contract/collections.js';
import type { PublicSurface } from './transfers.js';
import { said } from '../core/sentences.js';

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

export function publicCollectionRoutes(surface: PublicSurface, services: Services) {
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

  const open = async (c: Context<AppEnv>, slug: string) => {
    const site = await siteOf(c);
    return { site, shared: await openSharedCollection(c.var.services, slug, site.workspaceId) };
  };
  const accessOf = (c: Context<AppEnv>, shared: SharedCollection) =>
    visitorAccess(c.var.services, shared.c, { guestSession: getCookie(c, GUEST_COOKIE), unlockToken: c.req.header(COLLECTION_UNLOCK_HEADER) });
  /** The signed-in guest who comments and decides; any other visitor is refused: a review needs someone to stand by it. */
  const asReviewer = async (c: Context<AppEnv>, slug: string) => {
    const { shared } = await open(c, slug);
    const reviewer = await reviewerOfVisitor(c.var.services.db, shared.c, await accessOf(c, shared));
    if (!reviewer) throw new ApiError('forbidden', said({ id: 'api.public.onlyGuestsInvitedCollection', defaultMessage: 'Only guests invited to this collection can read and leave comments and reviews.' }), { reason: 'not_a_guest' });
    return { shared, reviewer };
  };

  surface
    .route({ method: 'get', path: '/:slug', auth: 'link', summary: 'A shared collection, as its page shows it', success: { status: 200, schema: PublicCollectionSchema } }, async (c, { params }) => {
      const { site, shared } = await open(c, params.slug);
      return c.json(await describeSharedCollection(c.var.services, shared, await accessOf(c, shared), site.origin));
    })
    .route(
      {
        method: 'get',
        path: '/:slug/files',
        auth: 'link',
        summary: "A page of a shared collection's files",
        query: PublicCollectionFilesQuerySchema,
        success: { status: 200, schema: PublicCollectionFilePageSchema },
      },
      async (c, { params, query }) => {
        const { site, shared } = await open(c, params.slug);
        return c.json(await pageOfSharedFiles(c.var.services, shared.c, query, site.origin, await accessOf(c, shared)));
      },
    )
    .route(
      {
        method: 'get',
        path: '/:slug/download-links',
        auth: 'link',
        summary: "Download links for a shared collection's files (or one folder's)",
        query: PublicCollectionDownloadLinksQuerySchema,
        success: { status: 200, schema: DownloadLinksSchema },
      },
      async (c, { params, query }) => {
        const { site, shared } = await open(c, params.slug);
        const access = await accessOf(c, shared);
        return c.json(await sharedDownloadLinks(c.var.services, shared.c, query.folderId, access, site.origin));
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/files',
        auth: 'link',
        summary: "A contributor guest's files to upload (tus endpoint and upload tokens)",
        body: GuestUploadRequestSchema,
        success: { status: 201, schema: AddFilesResponseSchema },
      },
      async (c, { params, body }) => {
        const { shared } = await open(c, params.slug);
        return c.json(await addGuestFiles(c.var.services, shared.c, await accessOf(c, shared), body), 201);
      },
    )
    .route(
      { method: 'get', path: '/:slug/files/:fileId/comments', auth: 'link', summary: "A file's comments, for a guest", success: { status: 200, schema: CommentListSchema } },
      async (c, { params }) => {
        const { shared, reviewer } = await asReviewer(c, params.slug);
        return c.json({ comments: await commentsOf(c.var.services, shared.c, params.fileId!, reviewer) });
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/files/:fileId/comments',
        auth: 'link',
        summary: 'A guest comments on a file',
        body: CreateCommentRequestSchema,
        success: { status: 201, schema: CommentResponseSchema },
      },
      async (c, { params, body }) => {
        const { shared, reviewer } = await asReviewer(c, params.slug);
        return c.json({ comment: await addComment(c.var.services, shared.c, params.fileId!, reviewer, body.body) }, 201);
      },
    )
    .route(
      {
        method: 'put',
        path: '/:slug/files/:fileId/review',
        auth: 'link',
        summary: 'A guest approves a file, asks for changes, or clears their decision',
        body: SetReviewRequestSchema,
        success: { status: 200, schema: ReviewResponseSchema },
      },
      async (c, { params, body }) => {
        const { shared, reviewer } = await asReviewer(c, params.slug);
        return c.json({ review: await setReview(c.var.services, shared.c, params.fileId!, reviewer, body.state) });
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/unlock',
        auth: 'link',
        summary: 'Unlock a password-protected collection',
        body: CollectionUnlockRequestSchema,
        success: { status: 200, schema: CollectionUnlockResponseSchema },
      },
      async (c, { params, body }) => {
        const { shared } = await open(c, params.slug);
        return c.json(await unlockSharedCollection(c.var.services, shared.c, body.password, clientAddress(c, services.config.TRUST_PROXY)));
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/guest-sign-in',
        auth: 'link',
        summary: 'Mail an invited guest a sign-in link',
        description: 'Answers 202 whether or not the address is invited, so the answer tells nobody who is.',
        body: GuestSignInRequestSchema,
        success: { status: 202, schema: GuestSignInSentSchema },
      },
      async (c, { params, body }) => {
        const { site, shared } = await open(c, params.slug);
        void requestGuestSignIn(c.var.services, shared, body.email, site.pageUrl(shared.c.slug), readerLanguage(c).locale).catch((err: unknown) =>
          c.var.services.log.error({ err, collectionId: shared.c.id }, 'guest sign-in request failed'),
        );
        return c.json({ sent: true }, 202);
      },
    )
    .route(
      {
        method: 'post',
        path: '/:slug/guest-session',
        auth: 'link',
        summary: "Redeem a guest's sign-in link for a guest session (a cookie)",
        body: GuestSessionRequestSchema,
        success: { status: 200, schema: GuestSessionSchema },
      },
      async (c, { params, body }) => {
        const { shared } = await open(c, params.slug);
        const { email, session } = await redeemGuestSignIn(c.var.services, shared.c, body.token);
        setCookie(c, GUEST_COOKIE, session.token, {
          path: guestCookiePath(shared.c.slug),
          httpOnly: true,
          sameSite: 'Lax',
          secure: services.config.PUBLIC_URL.startsWith('https:'),
          maxAge: Math.floor(GUEST_SESSION_TTL_MS / 1000),
        });
        return c.json({ email, expiresAt: session.expiresAt.toISOString() });
      },
    )
    .route({ method: 'delete', path: '/:slug/guest-session', auth: 'link', summary: "End the guest's session (the cookie goes)", success: { status: 204 } }, (c, { params }) => {
      const slug = params.slug;
      if (!isSlugShaped(slug)) throw notFound(said({ id: 'api.public.collectionNotFound', defaultMessage: 'Collection not found' }));
      deleteCookie(c, GUEST_COOKIE, { path: guestCookiePath(slug), secure: services.config.PUBLIC_URL.startsWith('https:') });
      return c.body(null, 204);
    });
}
