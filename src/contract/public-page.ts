import type { Locale } from './locales.js';
import type { PublicTransfer } from './public.js';
import type { PublicCollection, PublicCollectionFilePage } from './public-collections.js';
import type { PublicUploadRequest } from './public-requests.js';

/**
 * What the server puts into the HTML of a public page (a transfer's, a collection's or an upload
 * request's link), so its first view needs no API round trip: exactly what the public API would
 * answer this visitor's first requests, never more. Absent whenever that answer would be a refusal
 * (a password to give first, an invited guest's collection, a link that expired or was suspended,
 * the anonymous rate limit): the page then asks the API as it always did.
 *
 * Types only, so the browser's code does not carry zod.
 */

/** The id of the `<script type="application/json">` element that carries it. */
export const PUBLIC_PAGE_DATA_ID = 'public-page-data';

/**
 * The public page an address opens: `/t/<slug>` (a transfer), `/c/<slug>` (a collection) or
 * `/r/<slug>` (an upload request), with its slug decoded; null for any other path or a slug that
 * does not decode.
 */
export function publicPageOf(pathname: string): { kind: 't' | 'c' | 'r'; slug: string } | null {
  const match = /^\/([tcr])\/([^/]+)$/.exec(pathname);
  if (!match) return null;
  try {
    return { kind: match[1] as 't' | 'c' | 'r', slug: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

/** How many files a collection's page asks for at a time (and the server puts in its first view). */
export const COLLECTION_FILES_PAGE_SIZE = 200;

export type PublicPageData =
  | { page: 'transfer'; slug: string; transfer: PublicTransfer }
  | {
      page: 'collection';
      slug: string;
      /** The folder the address names (`?folder=`), or null for the top level. */
      folderId: string | null;
      collection: PublicCollection;
      /** The first page of that folder's files, as `GET …/files?folderId=&limit=COLLECTION_FILES_PAGE_SIZE` answers it. */
      files: PublicCollectionFilePage;
    }
  | { page: 'request'; slug: string; request: PublicUploadRequest };

/**
 * A public page's first view rendered on the server (src/app/entry-server.tsx): the HTML that goes
 * into `#root`, and what the browser's hydration must render with to match it (the moment and the
 * locale of its dates).
 */
/** The language a page is served in (the server's choice: contract/locales), and the reader's languages, for their variant of its formats. */
export interface PageLanguage {
  locale: Locale;
  languages: readonly string[];
}

export interface RenderedPage {
  html: string;
  renderedAt: number;
  locale: string;
}
