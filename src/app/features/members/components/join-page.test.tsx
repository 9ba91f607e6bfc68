import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InvitationPreview } from '../../../../contract/members';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const TOKEN = 'Abc123Token';

function invitation(overrides: Partial<InvitationPreview> = {}): InvitationPreview {
  return {
    workspace: { name: 'Analytical Engines' },
    email: 'grace@example.com',
    role: 'member',
    invitedBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
    hasAccount: false,
    expiresAt: '2026-12-06T12:00:00.000Z',
    ...overrides,
  };
}

/** The join page's requests, and those of the transfers list a joined person lands on. */
function network(handlers: Record<string, StubHandler>, current: ReturnType<typeof session> | null = null) {
  return stubFetch({
    ...signedIn('paid'),
    'GET /api/dashboard/session': current ? json(current) : apiError(401, 'unauthorized', 'Sign in to continue'),
    ...handlers,
  });
}

describe('the join page', () => {
  it('lets a new person name themself and choose a password, and joins only when they submit', async () => {
    const net = network({
      'POST /api/dashboard/join/preview': json(invitation()),
      'POST /api/dashboard/join/signup': () => json({ ...session('paid'), user: { id: 'usr_2', email: 'grace@example.com', name: 'Grace Hopper', isOperator: false } }, 201)
    });
    const { user } = renderApp(`/join?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' })).toBeInTheDocument();
    expect(screen.getByText(/Ada Lovelace invites/)).toHaveTextContent('Ada Lovelace invites grace@example.com to work in Analytical Engines as a member.');
    expect(screen.getByLabelText('Email')).toHaveValue('grace@example.com');
    // The token went in a body, never in a URL.
    expect(net.requestsTo('POST /api/dashboard/join/preview')[0]!.body).toEqual({ token: TOKEN });
    expect(net.requestsTo('POST /api/dashboard/join/signup')).toHaveLength(0);

    await user.type(screen.getByLabelText('Your name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Password'), 'a long enough password');
    await user.type(screen.getByLabelText('Repeat the password'), 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Create your account and join Analytical Engines' }));
    await screen.findByRole('heading', { name: 'Transfers', level: 1 });
    expect(net.requestsTo('POST /api/dashboard/join/signup')[0]!.body).toEqual({ token: TOKEN, name: 'Grace Hopper', password: 'a long enough password' });
  });

  it('asks someone with an account for its password, and joins with it', async () => {
    const net = network({ 'POST /api/dashboard/join/preview': json(invitation({ hasAccount: true })), 'POST /api/dashboard/join/signin': json(session('paid')) });
    const { user } = renderApp(`/join?token=${TOKEN}`);
    expect(await screen.findByText('grace@example.com has an account here: enter its password to join.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join Analytical Engines' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password');
    expect(net.requestsTo('POST /api/dashboard/join/signin')).toHaveLength(0);
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join Analytical Engines' }));
    await screen.findByRole('heading', { name: 'Transfers', level: 1 });
    expect(net.requestsTo('POST /api/dashboard/join/signin')[0]!.body).toEqual({ token: TOKEN, password: 'correct horse battery' });
  });

  it('joins the signed-in invited person with one press', async () => {
    const net = network(
      { 'POST /api/dashboard/join/preview': json(invitation()), 'POST /api/dashboard/join': json(session('paid')) },
      { ...session(), user: { id: 'usr_2', email: 'Grace@example.com', name: 'Grace', isOperator: false, twoStep: false, singleSignOn: false, language: null } },
    );
    const { user } = renderApp(`/join?token=${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Join Analytical Engines' }));
    await screen.findByRole('heading', { name: 'Transfers', level: 1 });
    expect(net.requestsTo('POST /api/dashboard/join')[0]!.body).toEqual({ token: TOKEN });
  });

  it('tells someone signed in with another address to sign out first, and offers no Join', async () => {
    network({ 'POST /api/dashboard/join/preview': json(invitation()) }, session());
    renderApp(`/join?token=${TOKEN}`);
    expect(await screen.findByText(/You are signed in as/)).toHaveTextContent('You are signed in as ada@example.com. The invitation is for grace@example.com');
    expect(screen.queryByRole('button', { name: 'Join Analytical Engines' })).not.toBeInTheDocument();
  });

  it('says when the invitation no longer works', async () => {
    network({ 'POST /api/dashboard/join/preview': apiError(410, 'gone', 'This invitation has expired') });
    renderApp(`/join?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'This invitation no longer works' })).toBeInTheDocument();
  });
});
