import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, noContent, stubFetch } from '../../../test/fetch-stub';
import { account, referral, session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

describe('settings page', () => {
  it("shows the workspace, plan, this month's usage and credit from the public API", async () => {
    const network = stubFetch({
      ...signedIn(),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/me/referral': json(referral),
    });
    renderApp('/settings');

    const workspace = await screen.findByRole('region', { name: 'Workspace' });
    expect(within(workspace).getByText('Analytical Engines')).toBeInTheDocument();
    const plan = screen.getByRole('region', { name: 'Plan' });
    expect(within(plan).getByText('Free')).toBeInTheDocument();
    expect(within(plan).getByText('No end date')).toBeInTheDocument();
    expect(within(plan).getByText('€12.50')).toBeInTheDocument();
    expect(within(plan).getByText('2 GB')).toBeInTheDocument();
    expect(within(plan).getByText('After 7 days')).toBeInTheDocument();
    const usage = screen.getByRole('region', { name: /^Usage in/ });
    expect(within(usage).getByRole('meter', { name: 'API calls' })).toHaveAttribute('aria-valuenow', '1234');
    expect(within(usage).getByText('of 50,000')).toBeInTheDocument();
    expect(within(usage).getByText('2.5 GB')).toBeInTheDocument();

    expect(network.requestsTo('POST /api/dashboard/token')).toHaveLength(1);
    expect(network.requestsTo('GET /api/v1/me')[0]?.headers.get('Authorization')).toBe('Bearer tok_dashboard');
  });

  it('shows when a paid plan ends', async () => {
    stubFetch({
      ...signedIn('paid'),
      'GET /api/v1/me': json(account({ plan: { ...account().plan, name: 'paid', until: '2027-01-31T00:00:00.000Z' } })),
      'GET /api/v1/me/referral': json(referral),
    });
    renderApp('/settings');

    const plan = await screen.findByRole('region', { name: 'Plan' });
    expect(within(plan).getByText('Paid')).toBeInTheDocument();
    expect(within(plan).getByText(/2027/)).toBeInTheDocument();
  });

  it('copies the referral link', async () => {
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) });
    const { user } = renderApp('/settings');

    expect(await screen.findByRole('textbox', { name: 'Referral link' })).toHaveValue(referral.link);
    await user.click(within(screen.getByRole('region', { name: 'Invite others' })).getByRole('button', { name: 'Copy' }));

    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(referral.link);
    expect(screen.getByText('Free months earned:')).toHaveTextContent('Free months earned: 2');
  });
});

describe('account basics in settings', () => {
  it('shows the workspace id with a copy button, and renames the workspace in place', async () => {
    const network = stubFetch({
      ...signedIn(),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/me/referral': json(referral),
      'PATCH /api/dashboard/workspace': ({ body }) => json({ ...session(), workspace: { ...session().workspace, name: (body as { name: string }).name } }),
    });
    const { user } = renderApp('/settings');

    const workspace = await screen.findByRole('region', { name: 'Workspace' });
    expect(within(workspace).getByRole('textbox', { name: 'Workspace id' })).toHaveValue(account().workspace.id);
    expect(within(workspace).getByRole('button', { name: 'Copy' })).toBeInTheDocument();

    await user.click(within(workspace).getByRole('button', { name: 'Rename' }));
    const name = within(workspace).getByRole('textbox', { name: 'Workspace name' });
    await user.clear(name);
    await user.click(within(workspace).getByRole('button', { name: 'Save' }));
    expect(name).toHaveAccessibleDescription('Name your workspace');
    expect(network.requestsTo('PATCH /api/dashboard/workspace')).toHaveLength(0);

    await user.type(name, '  Difference Engines ');
    await user.click(within(workspace).getByRole('button', { name: 'Save' }));
    // The header shows the new name at once.
    expect(await within(screen.getByRole('banner')).findByText('Difference Engines')).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/dashboard/workspace')[0]?.body).toEqual({ name: 'Difference Engines' });
    expect(within(workspace).queryByRole('textbox', { name: 'Workspace name' })).not.toBeInTheDocument();
  });

  it('changes the password, showing a wrong current password next to its field', async () => {
    let attempts = 0;
    const network = stubFetch({
      ...signedIn(),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/me/referral': json(referral),
      'POST /api/dashboard/password': () =>
        ++attempts === 1
          ? apiError(400, 'invalid_request', 'The current password is not right', { fields: [{ path: 'currentPassword', message: 'This is not your current password' }] })
          : noContent,
    });
    const { user } = renderApp('/settings');

    const card = await screen.findByRole('region', { name: 'Password' });
    await user.type(within(card).getByLabelText('Current password'), 'wrong one');
    await user.type(within(card).getByLabelText('New password'), 'short');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(within(card).getByLabelText('New password')).toHaveAccessibleDescription(expect.stringContaining('Use at least 10 characters'));
    expect(network.requestsTo('POST /api/dashboard/password')).toHaveLength(0);

    await user.type(within(card).getByLabelText('New password'), ' but longer now');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(await within(card).findByText('This is not your current password')).toBeInTheDocument();
    expect(within(card).getByLabelText('Current password')).toHaveFocus();

    await user.clear(within(card).getByLabelText('Current password'));
    await user.type(within(card).getByLabelText('Current password'), 'the right one');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(await within(card).findByRole('status')).toHaveTextContent('Password changed. Your other sessions were signed out.');
    expect(network.requestsTo('POST /api/dashboard/password').at(-1)?.body).toEqual({ currentPassword: 'the right one', newPassword: 'short but longer now' });
  });
});
