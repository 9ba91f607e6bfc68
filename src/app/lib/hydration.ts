import { storedCollectionView } from '../features/recipient/utils/collection-view';
import { rememberedUnlock } from '../features/recipient/utils/unlock-store';
import { submissionStorageKey } from '../features/uploader-page/utils/submission-store';
import { locale } from './format';
import type { ServerRender } from './server-render';

/** What the server rendered `#root` with (src/app/entry-server.tsx), or null when it did not render it. */
export function serverRenderOf(root: HTMLElement): ServerRender | null {
  const renderedAt = Number(root.dataset.ssrAt);
  const serverLocale = root.dataset.ssrLocale;
  if (!root.firstElementChild || !Number.isFinite(renderedAt) || !serverLocale) return null;
  return { renderedAt, locale: serverLocale };
}

const sample = 1234567.5;

/**
 * Whether the browser's first render of this page is the server's: the server renders a first
 * visit, and knows nothing this browser keeps (a password's unlock, a visitor's list-or-grid
 * choice, an upload request's submission under way), nor its number format when its English
 * differs (1,234.5 against 1.234,5). When the browser knows better, it renders the page itself.
 */
export function canHydrate(pathname: string, server: ServerRender): boolean {
  if (new Intl.NumberFormat(locale).format(sample) !== new Intl.NumberFormat(server.locale).format(sample)) return false;
  const match = /^\/([tcr])\/([^/]+)$/.exec(pathname);
  if (!match) return false;
  let slug: string;
  try {
    slug = decodeURIComponent(match[2]!);
  } catch {
    return false;
  }
  if (match[1] === 'r') {
    try {
      return window.localStorage.getItem(submissionStorageKey(slug)) === null;
    } catch {
      return true;
    }
  }
  if (rememberedUnlock(slug) !== null) return false;
  return match[1] === 't' || storedCollectionView() === 'list';
}
