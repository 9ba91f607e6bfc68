import { createMemoryHistory } from '@tanstack/react-router';
import { RouterServer } from '@tanstack/react-router/ssr/server';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { PageLanguage, PublicPageData, RenderedPage } from '../contract/public-page';
import { RawIntlProvider } from 'react-intl';
import { applyLocale, loadMessages } from './lib/intl';
import { renderWithPublicPageData } from './lib/public-page-data';
import { createQueryClient } from './lib/query-client';
import { ServerRenderProvider, type ServerRender } from './lib/server-render';
import { createAppRouter } from './router';

/**
 * The server render of a public page's first view (built by `vite build` into dist/ssr, loaded by
 * src/server/public/server-render.ts): the HTML that goes into `#root`, so the page paints before
 * its scripts have loaded. The browser hydrates it (src/app/main.tsx) with the same page data,
 * router and query cache seeded the same way, so its first render is this one exactly.
 *
 * Only the pages whose data the server put in the HTML are rendered (a transfer's, a collection's,
 * an upload request's link), and only what that data shows, through React (every text escaped).
 * No script is added: the page's data is the JSON element the browser reads anyway, and the
 * Content-Security-Policy allows no inline script.
 */


const PUBLIC_ROUTES = new Set(['/t/$slug', '/c/$slug', '/r/$slug']);

/** The page at `url` (path and search) rendered with its `data`; null when it should be left to the browser. */
export async function renderPublicPage(url: string, data: PublicPageData, language: PageLanguage): Promise<RenderedPage | null> {
  // An end-to-end encrypted transfer is decrypted in the browser with the key in the address's fragment, which the server never sees.
  if (data.page === 'transfer' && data.transfer.e2ee) return null;
  const messages = await loadMessages(language.locale, { dashboard: false });
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [url] }), server: true });
  await router.load();
  const leaf = router.state.matches.at(-1);
  if (!leaf || leaf.status !== 'success' || !PUBLIC_ROUTES.has(leaf.routeId)) return null;
  // The language is the process's while it renders: set after the last wait, for a render that runs to its end at once.
  const intl = applyLocale(language.locale, messages, language.languages);
  const server: ServerRender = { renderedAt: Date.now(), locale: intl.locale };
  try {
    const html = renderWithPublicPageData(data, () =>
      renderToString(
        <StrictMode>
          <RawIntlProvider value={intl}>
            <ServerRenderProvider value={server}>
              <RouterServer router={router} />
            </ServerRenderProvider>
          </RawIntlProvider>
        </StrictMode>,
      ),
    );
    // A part that failed or suspended would be left to the browser, whose hydration would then fail:
    // the whole page is left to it, and the server says why (React writes it into the boundary).
    if (html.includes('<!--$!') || html.includes('<!--$?')) {
      const reason = /data-msg="([^"]*)"/.exec(html)?.[1] ?? 'a part of it suspended';
      throw new Error(`the server render left part of the page to the browser: ${reason}`);
    }
    return { html, ...server };
  } finally {
    queryClient.clear();
  }
}
