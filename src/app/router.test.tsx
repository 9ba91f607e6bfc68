import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, noContent, stubFetch } from './test/fetch-stub';
import { account, session, signedIn } from './test/fixtures';
import { transfer, transferDownloads } from './features/transfers/testing/fixtures';
import { renderApp } from './test/render-app';

describe('the app shell and its routes', () => {
  it('sends signed-out visitors to sign-in, remembering where they were going', async () => {
    stubFetch({
      'GET /api/dashboard/setup': json({ needsFirstWorkspace: false }),
      'GET /api/dashboard/session': apiError(401, 'unauthorized', 'Not signed in'),
    });
    const { router } = renderApp('/settings?tab=usage');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
    expect(router.state.location.search).toEqual({ redirect: '/settings?tab=usage' });
  });

  it('sends a signed-in visitor from / to transfers', async () => {
    stubFetch(signedIn());
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Transfers', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transfers');
    expect(await screen.findByRole('link', { name: 'New transfer' })).toBeInTheDocument();
  });

  it('shows the workspace, its plan, navigation, a skip link, dark mode and sign-out in the header', async () => {
    stubFetch(signedIn('paid'));
    const { user } = renderApp('/transfers');

    const banner = await screen.findByRole('banner');
    expect(within(banner).getByText(session().workspace.name)).toBeInTheDocument();
    expect(within(banner).getByText('Paid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Transfers',
      'Collections',
      'Requests',
      'Vault',
      'Contacts',
      'Members',
      'Activity',
      'Webhooks',
      'API keys',
      'Settings',
    ]);
    expect(within(nav).getByRole('link', { name: 'Transfers' })).toHaveAttribute('aria-current', 'page');

    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');

    await user.click(within(nav).getByRole('link', { name: 'Webhooks' }));
    expect(await screen.findByRole('heading', { name: 'Webhooks', level: 1 })).toBeInTheDocument();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  it('switches dark mode from the header and remembers the choice', async () => {
    stubFetch(signedIn());
    const { user } = renderApp('/transfers');

    const toggle = await screen.findByRole('button', { name: 'Dark mode' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);

    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem('parcel-theme')).toBe('dark');
  });

  it('signs out and returns to the sign-in page', async () => {
    let signedOut = false;
    const network = stubFetch({
      ...signedIn(),
      'GET /api/dashboard/session': () => (signedOut ? apiError(401, 'unauthorized', 'Not signed in') : json(session())),
      'POST /api/dashboard/signout': () => {
        signedOut = true;
        return noContent;
      },
    });
    const { user, router } = renderApp('/transfers');

    await user.click(await screen.findByRole('button', { name: 'Sign out' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
    expect(network.requestsTo('POST /api/dashboard/signout')).toHaveLength(1);

    router.history.push('/keys');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
  });

  it('shows a friendly page for an address that does not exist', async () => {
    stubFetch(signedIn());
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/');
  });
});

describe('while data loads', () => {
  const slow = <T,>(body: T, ms = 400) => async () => {
    await new Promise((r) => setTimeout(r, ms));
    return json(body);
  };

  it('shows the page in outline, never a bare "Loading…", until a slow first load arrives', async () => {
    stubFetch({ ...signedIn(), 'GET /api/v1/transfers': slow({ transfers: [], nextCursor: null }, 1200) });
    renderApp('/transfers');

    expect(await screen.findByRole('status', { name: /^Loading (page|transfers)$/ }, { timeout: 1500 })).toBeInTheDocument();
    expect(screen.queryByText(/Loading…/)).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Transfers', level: 1 }, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status', { name: /^Loading (page|transfers)$/ })).not.toBeInTheDocument());
  });

  it('shows a thin progress bar while a slow navigation waits for its page, and removes it after', async () => {
    stubFetch({
      ...signedIn(),
      'GET /api/v1/transfers': json({ transfers: [], nextCursor: null }),
      'GET /api/v1/transfers/:id': slow(transfer(), 600),
      'GET /api/v1/transfers/:id/downloads': json(transferDownloads()),
      'GET /api/v1/me': json(account()),
    });
    const { router } = renderApp('/transfers');
    await screen.findByRole('heading', { name: 'Transfers', level: 1 });
    expect(screen.queryByRole('progressbar', { name: 'Loading page' })).not.toBeInTheDocument();

    void router.navigate({ to: '/transfers/$transferId', params: { transferId: 'tr_1' } });
    expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Quarterly report', level: 1 }, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading page' })).not.toBeInTheDocument(), { timeout: 3000 });
  });
});
