import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { NotFoundPage, PendingPage, RouteErrorPage } from './components/route-states';
import { routeTree } from './routeTree.gen';

/** `server`: the router of a server render (src/app/entry-server.tsx), which restores no scroll position (that would be an inline script). */
export function createAppRouter({ queryClient, history, server = false }: { queryClient: QueryClient; history?: RouterHistory; server?: boolean }) {
  return createRouter({
    routeTree,
    history,
    ...(server ? { isServer: true } : {}),
    context: { queryClient },
    defaultPreload: 'intent',
    // Loaders always run; TanStack Query decides what is fresh.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteErrorPage,
    defaultPendingComponent: PendingPage,
    // A page whose data takes longer than this shows its outline (and the top bar shows sooner);
    // once shown, the outline stays long enough not to flash.
    defaultPendingMs: 400,
    defaultPendingMinMs: 300,
    defaultNotFoundComponent: NotFoundPage,
    notFoundMode: 'root',
    scrollRestoration: !server,
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
