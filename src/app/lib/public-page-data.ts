import { PUBLIC_PAGE_DATA_ID, type PublicPageData } from '../../contract/public-page';

/**
 * The first view's data the server put into a public page's HTML (src/contract/public-page.ts),
 * so that page renders without waiting for the API. Each part is handed out once, to the query that
 * shows it first: a later read (after unlocking, another folder, the page opened again without a
 * reload) asks the API as before.
 */

type Page = PublicPageData['page'];
type Of<P extends Page> = Extract<PublicPageData, { page: P }>;

let parsed: PublicPageData | null | undefined;
const taken = new Set<string>();
/** The data of the server render under way (renderWithPublicPageData), which has no document to read it from. */
let rendering: PublicPageData | null = null;

function pageData(): PublicPageData | null {
  if (rendering) return rendering;
  if (parsed !== undefined) return parsed;
  const element = typeof document === 'undefined' ? null : document.getElementById(PUBLIC_PAGE_DATA_ID);
  try {
    parsed = element?.textContent ? (JSON.parse(element.textContent) as PublicPageData) : null;
  } catch {
    parsed = null;
  }
  return parsed;
}

/** `part` of the page's data if the HTML carried it for this page and slug and nobody took it yet; else undefined. */
export function takePublicPageData<P extends Page, R>(page: P, slug: string, part: string, pick: (data: Of<P>) => R | undefined): R | undefined {
  const data = pageData();
  const key = `${page}\n${slug}\n${part}`;
  if (!data || data.page !== page || data.slug !== slug || taken.has(key)) return undefined;
  const value = pick(data as Of<P>);
  if (value !== undefined) taken.add(key);
  return value;
}

/**
 * How long a query that took the page's data stays in the cache with nobody observing it, where it
 * would otherwise go at once (gcTime 0): the browser's hydration of the server render renders the
 * page in slices, and a query made in one slice must still be there when the page is committed,
 * or it would be made again without the data (already taken) and the page would show its loading
 * state over the server's markup.
 */
export const FIRST_VIEW_GC_MS = 60_000;

/** `gcTime` for a query whose first view the page's data may hold: FIRST_VIEW_GC_MS if the page carries data for this page and slug, else `otherwise`. */
export function firstViewGcTime(page: Page, slug: string, otherwise: number): number {
  const data = pageData();
  return data && data.page === page && data.slug === slug ? FIRST_VIEW_GC_MS : otherwise;
}

/**
 * Runs a server render (src/app/entry-server.tsx) with `data` as the page's data: its queries take
 * their first view from it exactly as the browser's do from the HTML, so both renders match. The
 * render is synchronous (renderToString), so no other request's render runs in between.
 */
export function renderWithPublicPageData<T>(data: PublicPageData, render: () => T): T {
  rendering = data;
  taken.clear();
  try {
    return render();
  } finally {
    rendering = null;
    taken.clear();
  }
}

/** Forgets what was read, for tests that put a page's data into the document. */
export function resetPublicPageDataForTests(): void {
  parsed = undefined;
  taken.clear();
}
