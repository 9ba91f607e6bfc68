import type { AnyRouter } from '@tanstack/react-router';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RawIntlProvider } from 'react-intl';
import { currentIntl } from './intl';
import { storedCollectionView } from '../features/recipient/utils/collection-view';
import { rememberedUnlock } from '../features/recipient/utils/unlock-store';
import { submissionStorageKey } from '../features/uploader-page/utils/submission-store';
import { publicPageOf } from '../../contract/public-page';
import { locale } from './format';
import { ServerRenderProvider, type ServerRender } from './server-render';

/**
 * The hydration of a public page the server rendered (src/app/entry-server.tsx). Loaded by
 * main.tsx only for such a page (and preloaded by its HTML: scripts/app-routes-manifest.ts), so
 * that no other page carries it.
 */

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
  const page = publicPageOf(pathname);
  if (!page) return false;
  const { kind, slug } = page;
  if (kind === 'r') {
    try {
      return window.localStorage.getItem(submissionStorageKey(slug)) === null;
    } catch {
      return true;
    }
  }
  if (rememberedUnlock(slug) !== null) return false;
  return kind === 't' || storedCollectionView() === 'list';
}

/**
 * Hydrates the server's render in `container` (the same tree as entry-server.tsx renders), or,
 * when this browser would render the page differently, renders it afresh with `render`.
 */
export async function hydratePage(container: HTMLElement, router: AnyRouter, render: () => void): Promise<void> {
  const server = serverRenderOf(container);
  if (!server || !canHydrate(window.location.pathname, server)) {
    // A server render this browser renders differently is replaced, not hydrated.
    container.replaceChildren();
    render();
    return;
  }
  // As TanStack Router's own hydration does (RouterClient): the router is told the page came from a
  // server render, so it renders its matches as the server did (no Suspense boundary around the
  // root), once its route's code has loaded (preloaded by the HTML).
  router.ssr = { manifest: undefined };
  try {
    await router.load();
  } catch (error) {
    console.warn('The page is rendered in the browser: its server render could not be hydrated', error);
    router.ssr = undefined;
    container.replaceChildren();
    render();
    return;
  }
  hydrateRoot(
    container,
    <StrictMode>
      <RawIntlProvider value={currentIntl()}>
        <ServerRenderProvider value={server}>
          <RouterProvider router={router} />
        </ServerRenderProvider>
      </RawIntlProvider>
    </StrictMode>,
    {
      // Named, so that it is not mistaken for anything else (the production build's React errors are bare numbers).
      onRecoverableError: (error) => console.error('The server-rendered page did not hydrate as rendered (hydration mismatch):', error),
    },
  );
}
