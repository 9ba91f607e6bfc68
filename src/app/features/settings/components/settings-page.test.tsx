import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../../test/fetch-stub';
import { account, referral, signedIn } from '../../../test/fixtures';
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
    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(referral.link);
    expect(screen.getByText('Free months earned:')).toHaveTextContent('Free months earned: 2');
  });
});
