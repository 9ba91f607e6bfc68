import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { session } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

function freshVisitor({
  firstWorkspace = false,
  signup = 'open',
  invitedEmail = null,
  ...extra
}: { firstWorkspace?: boolean; signup?: string; invitedEmail?: string | null } & Record<string, StubHandler | boolean | string | null> = {}) {
  let current: ReturnType<typeof session> | null = null;
  return stubFetch({
    'GET /api/dashboard/setup': ({ url }) =>
      json({ needsFirstWorkspace: firstWorkspace && !current, signup, invite: invitedEmail && url.searchParams.get('invite') ? { email: invitedEmail } : null }),
    'GET /api/dashboard/session': () => (current ? json(current) : apiError(401, 'unauthorized', 'Not signed in')),
    'POST /api/dashboard/signup': () => {
      current = session();
      return json(current, 201);
    },
    // Where a new account lands.
    'POST /api/dashboard/token': json({ accessToken: 'tok_dashboard', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
    'GET /api/v1/transfers': json({ transfers: [], nextCursor: null }),
    ...(extra as Record<string, StubHandler>),
  });
}

async function fillIn(user: ReturnType<typeof renderApp>['user'], values: { email?: string; password?: string; workspace?: string }) {
  if (values.email) await user.type(await screen.findByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.workspace) await user.type(screen.getByLabelText('Workspace name'), values.workspace);
}

describe('sign-up page', () => {
  it('shows what is wrong with each field when submitted empty', async () => {
    const network = freshVisitor();
    const { user } = renderApp('/signup');

    await user.click(await screen.findByRole('button', { name: 'Create account' }));

    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter your email address');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 10 characters. Use at least 10 characters');
    expect(screen.getByLabelText('Workspace name')).toBeInvalid();
    expect(screen.getByLabelText('Workspace name')).toHaveAccessibleDescription(expect.stringContaining('Name your workspace'));
    expect(network.requestsTo('POST /api/dashboard/signup')).toHaveLength(0);
  });

  it('asks for a password of at least 10 characters and clears the message once it is long enough', async () => {
    freshVisitor();
    const { user } = renderApp('/signup');

    await fillIn(user, { email: 'ada@example.com', password: 'short', workspace: 'Engines' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const password = screen.getByLabelText('Password');
    expect(password).toBeInvalid();
    expect(password).toHaveFocus();
    expect(screen.getByText('Use at least 10 characters')).toBeInTheDocument();

    await user.type(password, ' and longer');
    expect(password).not.toBeInvalid();
    expect(screen.queryByText('Use at least 10 characters')).not.toBeInTheDocument();
  });

  it('is titled "Create your workspace" when the instance has no workspace yet, and sends visitors there from /', async () => {
    freshVisitor({ firstWorkspace: true });
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Create your workspace', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
    expect(document.title).toBe('Create your workspace · Parcel');
  });

  it('goes from "Create your workspace" straight to the dashboard, never showing the other sign-up form', async () => {
    // The dashboard takes a moment to load, as over a real network: the sign-up page stays up meanwhile.
    const slowly = async () => {
      await new Promise((r) => setTimeout(r, 300));
      return json({ transfers: [], nextCursor: null });
    };
    freshVisitor({ firstWorkspace: true, 'GET /api/v1/transfers': slowly, 'POST /api/dashboard/token': json({ accessToken: 'st_x', expiresAt: new Date(Date.now() + 900_000).toISOString() }) });
    const { user } = renderApp('/signup');
    await screen.findByRole('heading', { name: 'Create your workspace', level: 1 });

    // Every heading the page shows from here on, however briefly.
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      for (const h of document.querySelectorAll('h1')) if (seen.at(-1) !== h.textContent) seen.push(h.textContent ?? '');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await fillIn(user, { email: 'ada@example.com', password: 'a long enough password', workspace: 'Engines' });
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    expect(await screen.findByRole('heading', { name: 'Transfers', level: 1 })).toBeInTheDocument();
    observer.disconnect();

    expect(seen).toEqual(['Create your workspace', 'Transfers']);
  });

  it('keeps the referral code from the invite link and sends it with the sign-up', async () => {
    const network = freshVisitor();
    const { user } = renderApp('/signup?ref=K7QX2M9P');

    expect(await screen.findByText('K7QX2M9P')).toBeInTheDocument();
    await fillIn(user, { email: 'grace@example.com', password: 'a long enough password', workspace: 'Compilers' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('heading', { name: 'Transfers', level: 1 })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/dashboard/signup')[0]?.body).toEqual({
      email: 'grace@example.com',
      password: 'a long enough password',
      workspaceName: 'Compilers',
      ref: 'K7QX2M9P',
    });
  });

  it("shows the server's message when the email is already taken", async () => {
    freshVisitor({
      'POST /api/dashboard/signup': apiError(409, 'conflict', 'An account with this email already exists; sign in instead'),
    });
    const { user } = renderApp('/signup');

    await fillIn(user, { email: 'ada@example.com', password: 'a long enough password', workspace: 'Engines' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists; sign in instead');
  });
});

describe('sign-up on a server where it is not open', () => {
  it('says sign-up is by invitation instead of offering a form that would fail', async () => {
    freshVisitor({ signup: 'invite' });
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Sign-up is by invitation' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
  });

  it('says so when sign-up is closed, and still lets the first account be created', async () => {
    freshVisitor({ signup: 'closed' });
    const closed = renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Sign-up is closed' })).toBeInTheDocument();
    closed.unmount();

    freshVisitor({ signup: 'closed', firstWorkspace: true });
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create your workspace' })).toBeInTheDocument();
  });

  it('takes the invitation\'s address as it is and sends the token with the sign-up', async () => {
    const network = freshVisitor({ signup: 'invite', invitedEmail: 'grace@example.com' });
    const { user } = renderApp('/signup?invite=abc123');
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('grace@example.com');
    expect(email).toHaveAttribute('readonly');
    await fillIn(user, { password: 'correct horse battery', workspace: 'Engines' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Analytical Engines');
    expect(network.requestsTo('POST /api/dashboard/signup')[0]!.body).toMatchObject({ email: 'grace@example.com', invite: 'abc123' });
  });
});
