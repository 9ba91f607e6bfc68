import fs from 'node:fs';
import type { Context } from 'hono';
import { z } from 'zod';
import { ROOT_FOLDER } from '../../contract/public-collections.js';
import { COLLECTION_FILES_PAGE_SIZE, PUBLIC_PAGE_DATA_ID, publicPageOf, type PublicPageData, type RenderedPage } from '../../contract/public-page.js';
import { visitorAccess } from '../collections/access.js';
import { describeSharedCollection, openSharedCollection, pageOfSharedFiles } from '../collections/shared-link.js';
import type { AppEnv } from '../http/env.js';
import { parseQuery } from '../http/validate.js';
import { clientAddress } from '../http/headers.js';
import { chargeAnonymous } from '../ratelimit/buckets.js';
import { describeUploadRequest, openUploadRequest } from '../collections/requests/submissions.js';
import type { Services } from '../services.js';
import { assertUnlocked, describeSharedTransfer, openSharedTransfer } from '../transfers/shared-link.js';

/** The collection page's own search parameters (its other ones, such as a sort, are not the server's). */
const CollectionPageQuerySchema = z.object({
  folder: z.string().min(1).max(100).optional().catch(undefined),
  guest: z.string().optional().catch(undefined),
});

/**
 * The data a public page's HTML carries (see src/contract/public-page.ts): for `/t/<slug>`,
 * `/c/<slug>` and `/r/<slug>` on the service's own host, what the public API's first requests of
 * that page would answer this visitor, made by the same operations. Null for any other path, and
 * whenever the API would refuse: the page then asks the API as before and shows the refusal.
 *
 * Nothing is read that the public API would not read from the same visitor: no cookie (a
 * password's unlock and a guest's session are sent by the page to the API only), so a
 * password-protected transfer or collection, and an invited guests' collection, get nothing. The
 * page costs the address one request of its anonymous allowance, as the API call it replaces did.
 */
export async function publicPageData(services: Services, c: Context<AppEnv>, pagePath: string): Promise<PublicPageData | null> {
  const addressed = publicPageOf(pagePath);
  if (!addressed) return null;
  const { kind, slug } = addressed;
  try {
    // As the collection page reads its address (validateCollectionPageSearch): anything malformed is the top level.
    const search = kind === 'c' ? parseQuery(c, CollectionPageQuerySchema) : {};
    // A mailed guest sign-in link is traded for a session first: nothing of the collection is shown before.
    if (search.guest !== undefined) return null;
    await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
    if (kind === 't') {
      const { t, workspaceName } = await openSharedTransfer(services, slug);
      assertUnlocked(services, t, undefined);
      return { page: 'transfer', slug, transfer: await describeSharedTransfer(services, t, workspaceName) };
    }
    if (kind === 'r') {
      return { page: 'request', slug, request: describeUploadRequest(services, await openUploadRequest(services, slug)) };
    }
    const shared = await openSharedCollection(services, slug);
    const access = await visitorAccess(services, shared.c, {});
    const folderId = search.folder ?? null;
    const origin = services.config.PUBLIC_URL;
    const [collection, files] = await Promise.all([
      describeSharedCollection(services, shared, access, origin),
      pageOfSharedFiles(services, shared.c, { folderId: folderId ?? ROOT_FOLDER, limit: COLLECTION_FILES_PAGE_SIZE }, origin, access),
    ]);
    return { page: 'collection', slug, folderId, collection, files };
  } catch {
    // A refusal (or anything else): the page asks the API, which answers it as it always did.
    return null;
  }
}

/**
 * JSON that is safe inside a `<script type="application/json">` element: `<`, `>` and `&` (so no
 * `</script>` or `<!--` in a file name can end the element or change how it is parsed) and the
 * line separators U+2028/U+2029 are written as `\u` escapes, which JSON.parse reads back unchanged.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const attributeValue = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The route file of each page (src/app/routes), whose scripts the build lists in `route-chunks.json`. */
const PAGE_ROUTE_FILES: Record<PublicPageData['page'], string> = { transfer: 't/$slug.tsx', collection: 'c/$slug.tsx', request: 'r/$slug.tsx' };

/** The key in `route-chunks.json` of the scripts that hydrate a server-rendered page. */
const HYDRATE_CHUNKS = 'lib/hydrate.tsx';

/** `route-chunks.json` of the build (scripts/app-routes-manifest.ts), or nothing when it is missing or unreadable. */
export function readRouteChunks(file: string): Record<string, string[]> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>;
  } catch {
    return {};
  }
}

/** How many previews the page asks the browser to fetch at once, before its script runs: those in the first rows of the grid. */
const PRELOADED_PREVIEWS = 6;

/** The previews the first view shows first: a transfer's, or the files of the collection's folder (its cover first). */
function firstPreviews(data: PublicPageData): string[] {
  if (data.page === 'transfer') return data.transfer.files.flatMap((f) => (f.thumbnailUrl ? [f.thumbnailUrl] : []));
  if (data.page === 'collection') return data.files.files.flatMap((f) => (f.thumbnailUrl ? [f.thumbnailUrl] : []));
  return [];
}

/** The empty `#root` of the built index.html, which a server render fills. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The page's HTML with its data: the JSON element, and a preload of the page's scripts and first
 * previews, before `</head>`; and, when the page was rendered on the server, that render inside
 * `#root`, marked with what its hydration needs (src/app/lib/hydrate.tsx), its scripts started
 * only once it has painted (afterPaint). The data is never HTML: it is escaped JSON in an element the browser does not run (a
 * data block, which the Content-Security-Policy does not govern), read by the app with JSON.parse.
 * The render is React's (every text escaped as it renders it).
 */
export function withPublicPageData(
  html: string,
  data: PublicPageData,
  routeChunks: Readonly<Record<string, readonly string[]>> = {},
  rendered: RenderedPage | null = null,
): string {
  // A server-rendered page is hydrated by a script of its own (src/app/lib/hydrate.tsx), fetched beside the route's.
  const modules = [...new Set([...(routeChunks[PAGE_ROUTE_FILES[data.page]] ?? []), ...(rendered ? (routeChunks[HYDRATE_CHUNKS] ?? []) : [])])];
  const images = firstPreviews(data)
    .slice(0, PRELOADED_PREVIEWS)
    .map((url) => `<link rel="preload" as="image" href="${attributeValue(url)}" />`);
  const element = `<script type="application/json" id="${PUBLIC_PAGE_DATA_ID}">${jsonForScriptElement(data)}</script>`;
  const preloadLinks = (priority: string) => modules.map((url) => `<link rel="modulepreload" crossorigin${priority} href="${attributeValue(url)}" />`).join('');
  // (Functions, so that no `$&` or `$'` in a file name is read as a replacement pattern.)
  if (!rendered || !html.includes(EMPTY_ROOT)) return html.replace('</head>', () => `${preloadLinks('')}${images.join('')}${element}</head>`);
  const root = `<div id="root" data-ssr-at="${rendered.renderedAt}" data-ssr-locale="${attributeValue(rendered.locale)}">${rendered.html}</div>`;
  const deferred = afterPaint(html, modules);
  const head = deferred ? `${images.join('')}${deferred.loader}${element}` : `${preloadLinks(' fetchpriority="low"')}${images.join('')}${element}`;
  return (deferred?.html ?? html).replace('</head>', () => `${head}</head>`).replace(EMPTY_ROOT, () => root);
}

const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g;

/**
 * A rendered page reads without its scripts, so they start only once it has painted
 * (public/load-after-paint.js, told the entry and the modules to preload): the index's module
 * script and its preloads are taken out, and the loader put in. Null when the index has no entry
 * script to move (the page then keeps its scripts as they are).
 */
function afterPaint(html: string, routeModules: readonly string[]): { html: string; loader: string } | null {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) return null;
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const modules = [...new Set([...preloads, ...routeModules])];
  const rest = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
  return {
    html: rest,
    loader: `<script src="/load-after-paint.js" defer data-entry="${attributeValue(entry)}" data-modules="${attributeValue(modules.join(' '))}"></script>`,
  };
}
