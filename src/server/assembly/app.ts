import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { errorCodeForStatus } from '../../contract/errors.js';
import { v1App } from '../api/v1/index.js';
import { CONTACT_IMPORT_BODY_LIMIT, CONTACT_IMPORT_PATH } from '../dashboard/contacts.js';
import { dashboardRoutes } from '../dashboard/routes.js';
import { oauthRoutes } from '../oauth/routes.js';
import { mountMcp } from '../mcp/routes.js';
import { downloadRoutes } from '../downloads/serve.js';
import { thumbnailRoutes } from '../thumbnails/thumbnails.js';
import { publicPageData, readRouteChunks, withPublicPageData } from '../public/page-data.js';
import { publicPageRenderer } from '../public/server-render.js';
import { publicRoutes } from '../public/transfers.js';
import type { Services } from '../services.js';
import { uploadTokenRoutes } from '../uploads/renew.js';
import { mountTus } from '../uploads/tus.js';
import type { Locker } from '@tus/server';
import { customDomainPage } from '../collections/custom-link.js';
import { collectionOfFormerSlug } from '../collections/readable-links.js';
import { isSlugShaped } from '../collections/shared-link.js';
import { publicPageOf } from '../../contract/public-page.js';
import { getCookie } from 'hono/cookie';
import { textDirection, type Locale } from '../../contract/locales.js';
import { sessionLanguage } from '../auth/sessions.js';
import { SESSION_COOKIE } from '../dashboard/session.js';
import { answerLanguage, messageIn } from '../http/answer-language.js';
import { readerLanguage } from '../http/reader-language.js';
import type { Database } from '../db/connection.js';
import { appRouteMatcher } from './app-routes.js';
import type { AppEnv } from '../http/env.js';
import { hostnameOf, requestHost, setResponseHeaders } from '../http/headers.js';
import { ApiError, errorBody } from '../core/errors.js';
import { isUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/unavailable.js';
import { requestContextMiddleware } from '../http/middleware/request-context.js';
import { securityHeaders } from '../http/middleware/security-headers.js';
import { settleUnreadBody } from '../http/middleware/unread-body.js';
import { scannerHealth } from '../scanning/scanner.js';
import { said } from '../core/sentences.js';

export const defaultStaticDir = fileURLToPath(new URL('../../../dist/app', import.meta.url));

export interface AppOptions {
  /** Where the built SPA lives; the app is served from here with history fallback. */
  staticDir?: string;
  /**
   * The server render of the public pages (src/app/entry-server.tsx as `vite build` leaves it):
   * by default the one built beside the SPA (dist/ssr beside dist/app), when it exists.
   */
  serverRenderEntry?: string;
  /** Set while shutting down, so that new requests get 503 and load balancers move on. */
  isDraining?: () => boolean;
  /** Locks uploads across instances (uploads/pg-locker.ts). */
  uploadLocker: Locker;
}

export function createApp(services: Services, options: AppOptions) {
  const app = new Hono<AppEnv>();
  const staticDir = options.staticDir ?? defaultStaticDir;

  app.use('*', requestContextMiddleware(services));
  app.use('*', securityHeaders);
  app.use('*', settleUnreadBody);

  app.onError((err, c) => {
    const { config, log } = c.var.services ?? services;
    // An error's sentence in the reader's language (Accept-Language), when it has one.
    const answer = (error: ApiError, status: number) => {
      const { message, locale } = messageIn(error, answerLanguage(c));
      c.header('Content-Language', locale);
      c.header('Vary', 'Accept-Language', { append: true });
      return c.json(errorBody(config.PUBLIC_URL, error.code, message, error.details), status as 400);
    };
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return answer(err, err.status);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = errorCodeForStatus(err.status);
      return c.json(errorBody(config.PUBLIC_URL, code, err.message || 'Bad request', {}), err.status);
    }
    if (isUnavailable(err)) {
      log.warn({ err }, 'a service the server depends on is unavailable');
      c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return answer(new ApiError('unavailable', said({ id: 'api.request.unavailable', defaultMessage: 'The service cannot reach its database or storage right now; retry shortly' })), 503);
    }
    // SQLSTATE class 22 (data exception: a character or number the database cannot hold) is input
    // the validation should have refused. Answer it as the client's error, and warn so it is fixed.
    if (sqlState(err)?.startsWith('22')) {
      log.warn({ err }, 'input reached the database unvalidated');
      return answer(new ApiError('invalid_request', said({ id: 'api.request.valueCannotBeStored', defaultMessage: 'A value in the request cannot be stored' })), 400);
    }
    log.error({ err }, 'unhandled error');
    return answer(new ApiError('internal_error', said({ id: 'api.request.internal', defaultMessage: 'Something went wrong on our side' })), 500);
  });

  app.get('/healthz', async (c) => {
    if (options.isDraining?.()) return c.json({ status: 'draining' }, 503);
    await services.db.$client.query('SELECT 1');
    // With a virus scanner configured: whether clamd answers and how many files wait for it. Still
    // 200 when it is down (this instance serves everything else; unscanned files wait), but `degraded`.
    const scanner = await scannerHealth(services);
    if (!scanner) return c.json({ status: 'ok' });
    return c.json({ status: scanner.status === 'ok' ? 'ok' : 'degraded', scanner });
  });

  // JSON bodies are small; anything larger is refused before it is read into memory.
  // (File bytes never come through these routes: they go to the tus endpoint.)
  const jsonBodyLimit = bodyLimit({
    maxSize: 1024 * 1024,
    onError: () => {
      throw new ApiError('payload_too_large', said({ id: 'api.request.requestBodyLargerThan', defaultMessage: 'The request body is larger than 1 MiB' }));
    },
  });
  // A CSV import writes a whole address book in one transaction, so its body may be larger.
  const contactImportBodyLimit = bodyLimit({
    maxSize: CONTACT_IMPORT_BODY_LIMIT,
    onError: () => {
      throw new ApiError('payload_too_large', said({ id: 'api.request.bodyLargerThanMiB', defaultMessage: 'The request body is larger than {mebibytes} MiB' }, { mebibytes: String(CONTACT_IMPORT_BODY_LIMIT / 1024 / 1024) }));
    },
  });
  for (const prefix of ['/api/v1/*', '/api/dashboard/*', '/api/public/*', '/api/uploads/*']) {
    app.use(prefix, (c, next) => {
      // A GET or HEAD has no body, and asking for one makes @hono/node-server build a whole Fetch
      // Request (headers copied, an AbortController): about 8 % of the CPU of a mixed API load.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
      return c.req.path === CONTACT_IMPORT_PATH ? contactImportBodyLimit(c, next) : jsonBodyLimit(c, next);
    });
  }
  // JSON answers are compressed when the client accepts it; file bytes (/dl, /files) never are:
  // they are often compressed already, and a download must keep its Content-Length and ranges.
  const compressAccepted = compress();
  app.use('/api/*', async (c, next) => {
    if (/gzip|deflate/i.test(c.req.header('accept-encoding') ?? '')) return compressAccepted(c, next);
    await next();
    // What compress() would add, set on the headers: its c.header() after the handler makes
    // @hono/node-server turn a light response into a streamed one, for a client (most API
    // clients) that asked for no compression.
    const { status, headers } = c.res;
    if (status !== 206 && c.req.method !== 'HEAD' && !headers.has('content-encoding') && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(headers.get('content-type') ?? '')) {
      const vary = headers.get('vary');
      if (vary !== '*' && !/accept-encoding/i.test(vary ?? '')) setResponseHeaders(c, { Vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding' });
    }
  });

  app.route('/api/v1', v1App());
  app.route('/api/dashboard', dashboardRoutes());
  // Resumable uploads: the tus endpoint (host path) and upload-token renewal.
  mountTus(app, services, options.uploadLocker);
  app.route('/api/uploads/token', uploadTokenRoutes(services));
  // Recipients: the public transfer API and the signed download URLs.
  app.route('/api/public', publicRoutes(services));
  app.route('/dl', downloadRoutes());
  app.route('/thumb', thumbnailRoutes());
  // AI assistants: the OAuth authorization server (/oauth, /.well-known/oauth-*) and the MCP server (/mcp).
  app.route('/', oauthRoutes(services));
  mountMcp(app, services);
  app.all('/api/*', (c) => {
    throw new ApiError('not_found', said({ id: 'api.request.noEndpoint', defaultMessage: 'No endpoint {method} {path}', description: 'method: the HTTP method (GET, POST…); path: the path asked for' }, { method: c.req.method, path: c.req.path }));
  });
  // Discovery clients probe well-known addresses (an OpenID configuration, the bare resource metadata):
  // a JSON 404 for those we do not serve, never the web app's page.
  app.all('/.well-known/*', (c) => {
    throw new ApiError('not_found', said({ id: 'api.request.nothingServed', defaultMessage: 'Nothing is served at {path}' }, { path: c.req.path }));
  });

  // The built SPA: hashed assets cached for good, everything else falls back to index.html.
  const indexFile = path.join(staticDir, 'index.html');
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  });
  // The build leaves a brotli and a gzip copy beside every text asset (scripts/precompress.ts).
  if (fs.existsSync(staticDir)) {
    const staticFiles = serveStatic({ root: path.relative(process.cwd(), staticDir) || '.', precompressed: true });
    // index.html is a page like any other: its status depends on the host (a workspace's own domain has no `/`).
    app.use('*', (c, next) => (isIndexPath(c.req.path) ? next() : staticFiles(c, next)));
  }
  let indexHtml: string | null = null;
  let customDomainIndexHtml: string | null = null;
  let isAppPage: ((path: string) => boolean) | null = null;
  let routeChunks: Record<string, string[]> | null = null;
  const renderPublicPage = publicPageRenderer(options.serverRenderEntry ?? path.resolve(staticDir, '../ssr/entry-server.js'), services.log);
  const ownHost = hostnameOf(services.config.PUBLIC_URL);
  app.get('*', compress(), async (c) => {
    indexHtml ??= fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
    if (indexHtml === null) {
      return c.text('The web app is not built yet. Run `npm run build` (npm start does this for you).', 503);
    }
    isAppPage ??= appRouteMatcher(path.join(staticDir, 'routes.json'));
    const pagePath = isIndexPath(c.req.path) ? '/' : c.req.path;
    let found = isAppPage(pagePath);
    let html = indexHtml;
    const host = requestHost(c, services.config.TRUST_PROXY);
    // Only hosts other than PUBLIC_URL's can be a workspace's domain (admin `domain set` refuses it), so the app's own pages cost no query.
    if (host !== null && host !== ownHost) {
      const page = await customDomainPage(services.db, host, pagePath);
      // A workspace's domain shows its collections' custom links and nothing else of the app.
      if (page) {
        found = page.collection !== null;
        html = customDomainIndexHtml ??= markCustomDomain(indexHtml);
        const renamed = found ? null : await renamedCollectionPage(services.db, pagePath, page.workspaceId);
        if (renamed) return redirectTo(c, renamed);
      }
    } else {
      const renamed = await renamedCollectionPage(services.db, pagePath, null);
      if (renamed) return redirectTo(c, renamed);
    }
    // A page in its reader's language: their choice from a page's menu (a cookie), else their browser's; the
    // dashboard in the signed-in person's own (Settings) when they chose one, on whichever device they use.
    const reader = readerLanguage(c);
    const isSharedLinkPage = publicPageOf(pagePath) !== null || html === customDomainIndexHtml;
    const ownLanguage = isSharedLinkPage ? null : await sessionLanguage(services, getCookie(c, SESSION_COOKIE));
    const language = ownLanguage ? { ...reader, locale: ownLanguage } : reader;
    c.header('Vary', 'Accept-Language, Cookie');
    html = inLanguage(html, language.locale);
    // A transfer's, collection's or request's link carries its first view's data (only on the service's own host).
    const pageData = found && (host === null || host === ownHost) ? await publicPageData(services, c, pagePath) : null;
    if (pageData) {
      // Signed preview URLs and the link's contents: not for any cache, as the public API's answers are not.
      c.header('Cache-Control', 'no-store');
      routeChunks ??= readRouteChunks(path.join(staticDir, 'route-chunks.json'));
      // Its first view rendered too, so it paints before its scripts have loaded (or served without it, as the browser renders it).
      const url = new URL(c.req.url);
      const rendered = await renderPublicPage(`${url.pathname}${url.search}`, pageData, language);
      return c.html(withPublicPageData(html, pageData, routeChunks, rendered), 200);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(html, found ? 200 : 404);
  });
  app.notFound((c) => {
    const { message, locale } = messageIn(new ApiError('not_found', said({ id: 'api.request.notFound', defaultMessage: 'Not found' })), answerLanguage(c));
    c.header('Content-Language', locale);
    c.header('Vary', 'Accept-Language', { append: true });
    return c.json(errorBody(services.config.PUBLIC_URL, 'not_found', message), 404);
  });
  return app;
}

const isIndexPath = (p: string) => p === '/' || p === '/index.html';

/** The page's `<html>` in its language and that language's direction (index.html is written `<html lang="en">`). */
function inLanguage(html: string, locale: Locale): string {
  return html.replace(/<html[^>]*>/, () => `<html lang="${locale}" dir="${textDirection(locale)}">`);
}

/**
 * The current address of a collection page opened at a name its owner renamed: `/c/<former>` on the service's host,
 * `/<former>` on the workspace's own domain (`onDomainOf`). Null for every other path, and for a slug that is current.
 */
async function renamedCollectionPage(db: Database, pagePath: string, onDomainOf: string | null): Promise<string | null> {
  const slug = onDomainOf === null ? (publicPageOf(pagePath)?.kind === 'c' ? publicPageOf(pagePath)!.slug : null) : /^\/([^/]+)\/?$/.exec(pagePath)?.[1];
  if (!slug || !isSlugShaped(slug)) return null;
  const renamed = await collectionOfFormerSlug(db, slug, onDomainOf);
  if (!renamed) return null;
  return onDomainOf === null ? `/c/${renamed.slug}` : `/${renamed.slug}`;
}

/** A permanent redirect to `pagePath` on this host, with the request's query (a guest's sign-in token, a folder). */
function redirectTo(c: Context, pagePath: string): Response {
  const search = new URL(c.req.url).search;
  c.header('Cache-Control', 'no-cache');
  return c.redirect(`${pagePath}${search}`, 308);
}

/** The marker the app reads to tell a workspace's own domain (where `/<slug>` is a collection's page) from the service's host. */
export const CUSTOM_DOMAIN_META = '<meta name="parcel-custom-domain" content="true" />';

/** The index as served on a workspace's own domain: the same app, told where it is. */
function markCustomDomain(html: string): string {
  return html.includes('</head>') ? html.replace('</head>', `${CUSTOM_DOMAIN_META}</head>`) : html.replace(/^(<!doctype html>)?/i, `$1${CUSTOM_DOMAIN_META}`);
}

/** The SQLSTATE of a database error, also when a query builder wrapped it (as `cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ('severity' in e && 'code' in e && typeof e.code === 'string') return e.code;
  }
  return undefined;
}
