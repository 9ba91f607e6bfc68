import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, redirect } from '@tanstack/react-router';
import { NavigationProgress } from '../components/navigation-progress';
import { NotFoundPage } from '../components/route-states';
import { needsNewDocument } from '../lib/intl';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // To the dashboard from a shared link's page in German (say), or just signed in to a dashboard in another language
  // than the page's: the new page is loaded whole, in its language with its catalogs.
  beforeLoad: ({ location }) => {
    if (needsNewDocument(location.pathname)) throw redirect({ href: location.href, reloadDocument: true });
  },
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
