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

function pageData(): PublicPageData | null {
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

/** Forgets what was read, for tests that put a page's data into the document. */
export function resetPublicPageDataForTests(): void {
  parsed = undefined;
  taken.clear();
}
