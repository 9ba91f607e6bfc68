import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MemberList } from '../../../../contract/members';
import { json, noContent, stubFetch } from '../../../test/fetch-stub';
import { session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

function team(): MemberList {
  return {
    members: [
      { id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner', joinedAt: '2026-09-01T00:00:00.000Z', disabled: false, twoStep: false },
      { id: 'usr_2', name: null, email: 'grace@example.com', role: 'member', joinedAt: '2026-11-01T00:00:00.000Z', disabled: false, twoStep: false },
    ],
    invitations: [
      { id: 'inv_1', email: 'alan@example.com', role: 'admin', invitedBy: { name: 'Ada Lovelace', email: 'ada@example.com' }, sentAt: '2026-11-20T00:00:00.000Z', expiresAt: '2026-11-27T00:00:00.000Z', expired: true },
    ],
  };
}

describe('the members page', () => {
  it('lets the owner invite only with the button, never with Enter in the address', async () => {
    const net = stubFetch({ ...signedIn('paid'), 'GET /api/dashboard/members': json(team()), 'POST /api/dashboard/members/invitations': json({}, 201) });
    const { user } = renderApp('/members');

    const email = await screen.findByLabelText('Email');
    await user.type(email, 'new@example.com{Enter}');
    expect(net.requestsTo('POST /api/dashboard/members/invitations')).toHaveLength(0);
    await user.selectOptions(screen.getByLabelText('Role'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() => expect(net.requestsTo('POST /api/dashboard/members/invitations')).toHaveLength(1));
    expect(net.requestsTo('POST /api/dashboard/members/invitations')[0]!.body).toEqual({ email: 'new@example.com', role: 'admin' });
    expect(await screen.findByRole('status')).toHaveTextContent('Invitation sent to new@example.com.');
  });

  it('changes a member’s role from its row and lists an expired invitation to send again', async () => {
    const net = stubFetch({
      ...signedIn('paid'),
      'GET /api/dashboard/members': json(team()),
      'PATCH /api/dashboard/members/:id': noContent,
      'POST /api/dashboard/members/invitations/:id/resend': json({}),
    });
    const { user } = renderApp('/members');

    await user.selectOptions(await screen.findByLabelText('Role of grace@example.com'), 'admin');
    await waitFor(() => expect(net.requestsTo('PATCH /api/dashboard/members/usr_2')[0]?.body).toEqual({ role: 'admin' }));
    const invitations = screen.getByRole('region', { name: 'Invitations' });
    expect(within(invitations).getByText(/expired/)).toBeInTheDocument();
    await user.click(within(invitations).getByRole('button', { name: 'Send the invitation to alan@example.com again' }));
    await waitFor(() => expect(net.requestsTo('POST /api/dashboard/members/invitations/inv_1/resend')).toHaveLength(1));
    // The owner's own row has no role to change and no Leave.
    expect(screen.queryByLabelText('Role of Ada Lovelace')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave the workspace' })).not.toBeInTheDocument();
  });

  it('shows a member the team, with no invitation form or controls over others, and a way to leave', async () => {
    // Signed in as Grace, a member.
    const asMember = { ...session('paid'), user: { id: 'usr_2', email: 'grace@example.com', name: null, isOperator: false }, workspace: { ...session('paid').workspace, role: 'member' as const } };
    stubFetch({ ...signedIn('paid'), 'GET /api/dashboard/session': json(asMember), 'GET /api/dashboard/members': json({ ...team(), invitations: [] }) });
    renderApp('/members');

    expect(await screen.findByRole('heading', { name: /Members/, level: 2 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave the workspace' })).toBeInTheDocument();
    // Nor do the admins' pages show in the menu.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'API keys' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Webhooks' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Members' })).toBeInTheDocument();
  });
});
