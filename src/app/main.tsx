import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RawIntlProvider } from 'react-intl';
import { currentIntl, startLocale } from './lib/intl';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter({ queryClient });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container: HTMLElement = root;

function render() {
  createRoot(container).render(
    <StrictMode>
      <RawIntlProvider value={currentIntl()}>
        <RouterProvider router={router} />
      </RawIntlProvider>
    </StrictMode>,
  );
}

function start() {
  if (container.dataset.ssrAt) {
    // A public page the server rendered (src/app/entry-server.tsx): hydrated by code of its own, which no other page loads.
    import('./lib/hydrate')
      .then(({ hydratePage }) => hydratePage(container, router, render))
      .catch((error: unknown) => {
        console.warn('The page is rendered in the browser: its hydration could not be loaded', error);
        container.replaceChildren();
        render();
      });
  } else {
    render();
  }
}

// The page's language first (its catalog, for a language other than English), then the page in it.
void startLocale().then(start);
