import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createAppRouter } from '../router';

/** The whole app (real router, routes and queries) at `path`; only `fetch` is stubbed, by the test. */
export function renderApp(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  const user = userEvent.setup();
  const view = render(<RouterProvider router={router} />);
  return { ...view, user, router, queryClient };
}
