import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { canHydrate, serverRenderOf } from './lib/hydration';
import { createQueryClient } from './lib/query-client';
import { ServerRenderProvider, type ServerRender } from './lib/server-render';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter({ queryClient });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container: HTMLElement = root;

/** The same tree as the server render's (src/app/entry-server.tsx). */
const app = (server: ServerRender | null) => (
  <StrictMode>
    <ServerRenderProvider value={server}>
      <RouterProvider router={router} />
    </ServerRenderProvider>
  </StrictMode>
);

function render() {
  createRoot(container).render(app(null));
}

const server = serverRenderOf(container);
if (server && canHydrate(window.location.pathname, server)) {
  // As TanStack Router's own hydration does (RouterClient): the router is told the page came from a
  // server render, so it renders its matches as the server did (no Suspense boundary around the
  // root), once its route's code has loaded (preloaded by the HTML).
  router.ssr = { manifest: undefined };
  router
    .load()
    .then(() => {
      hydrateRoot(container, app(server), {
        // Named, so that it is not mistaken for anything else (the production build's React errors are bare numbers).
        onRecoverableError: (error) => console.error('The server-rendered page did not hydrate as rendered (hydration mismatch):', error),
      });
    })
    .catch((error: unknown) => {
      console.warn('The page is rendered in the browser: its server render could not be hydrated', error);
      router.ssr = undefined;
      container.replaceChildren();
      render();
    });
} else {
  // A server render this browser renders differently is replaced, not hydrated.
  if (server) container.replaceChildren();
  render();
}
