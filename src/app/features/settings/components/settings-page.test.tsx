import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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
    expect(within(workspace).getByText('On: every file is checked for malware before anyone can download it')).toBeInTheDocument();
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
    expect(within(usage).getByRole('meter', { name: 'Your vault' })).toHaveAttribute('aria-valuetext', '0 bytes of 2 GB (you have not created your vault yet)');

    expect(network.requestsTo('POST /api/dashboard/token')).toHaveLength(1);
    expect(network.requestsTo('GET /api/v1/me')[0]?.headers.get('Authorization')).toBe('Bearer tok_dashboard');
  });

  it('shows no plan, credit, price, upgrade or referral months on a server that bills nobody', async () => {
    const free = account();
    const unbilled = account({
      plan: { ...free.plan, name: 'paid', billing: 'off', limits: { ...free.plan.limits, monthlyCalls: null, includedUploadBytesPerMonth: null, uploadPriceEurPerGb: 0 } },
      usage: { ...free.usage, creditEur: 0 },
    });
    stubFetch({
      ...signedIn(),
      'GET /api/dashboard/session': json(session('paid', false, 'off')),
      'GET /api/v1/me': json(unbilled),
      'GET /api/v1/me/referral': json({ ...referral, freeMonthsEarned: 0, rule: { ...referral.rule, monthsPerReferral: 0, maxFreeMonths: 0 } }),
    });
    renderApp('/settings');

    const limits = await screen.findByRole('region', { name: 'Limits' });
    expect(within(limits).getByText('2 GB')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Plan' })).not.toBeInTheDocument();
    const usage = screen.getByRole('region', { name: /^Usage in/ });
    expect(within(usage).getByText('not charged')).toBeInTheDocument();
    const page = document.body.textContent ?? '';
    for (const word of [/\bplan\b/i, /credit/i, /€/, /per GB/i, /upgrade/i, /free months?/i, /\bPaid\b/, /\bFree\b/]) expect(page).not.toMatch(word);
  });

  it('says whether this server checks files for viruses', async () => {
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account({ scanning: { enabled: false } })), 'GET /api/v1/me/referral': json(referral) });
    renderApp('/settings');

    const workspace = await screen.findByRole('region', { name: 'Workspace' });
    expect(within(workspace).getByText(/^Off: this server does not check files for malware/)).toBeInTheDocument();
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

  it('copies the referral link, and offers no Share button where the browser cannot share', async () => {
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) });
    const { user } = renderApp('/settings');

    expect(await screen.findByRole('textbox', { name: 'Referral link' })).toHaveValue(referral.link);
    const card = screen.getByRole('region', { name: 'Invite others' });
    expect(within(card).queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Copy' }));

    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(referral.link);
  });

  it('shows the code, the sign-ups through the link, the free months earned and the rule', async () => {
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) });
    renderApp('/settings');

    const card = await screen.findByRole('region', { name: 'Invite others' });
    const rule = 'You earn 1 free month for each workspace that signs up with your link and takes a paid plan, up to 12 months.';
    expect(within(card).getByText(rule)).toBeInTheDocument();
    expect(within(card).getByRole('textbox', { name: 'Referral link' })).toHaveAccessibleDescription(rule);
    expect(factOf(card, 'Referral code')).toBe('K7QX2M9P');
    expect(factOf(card, 'Sign-ups through your link')).toBe('3, 2 took a paid plan');
    expect(factOf(card, 'Free months earned')).toBe('2');
  });

  it('says when the most free months are earned, under a rule that counts at sign-up', async () => {
    const capped = {
      ...referral,
      signups: 7,
      qualifyingSignups: 7,
      freeMonthsEarned: 6,
      rule: { earnsOn: 'signup', monthsPerReferral: 2, maxFreeMonths: 6 },
    } as const;
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(capped) });
    renderApp('/settings');

    const card = await screen.findByRole('region', { name: 'Invite others' });
    expect(within(card).getByText('You earn 2 free months for each workspace that signs up with your link, up to 6 months.')).toBeInTheDocument();
    expect(factOf(card, 'Sign-ups through your link')).toBe('7');
    expect(factOf(card, 'Free months earned')).toBe('6, the most you can earn');
  });

  it('only invites when the server has turned earning off', async () => {
    const off = { ...referral, freeMonthsEarned: 0, rule: { ...referral.rule, monthsPerReferral: 0 } };
    stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(off) });
    renderApp('/settings');

    const card = await screen.findByRole('region', { name: 'Invite others' });
    expect(within(card).getByText('Share your link to invite others to create a workspace.')).toBeInTheDocument();
    expect(factOf(card, 'Sign-ups through your link')).toBe('3');
    expect(within(card).queryByText('Free months earned')).not.toBeInTheDocument();
    expect(within(card).queryByText(/free month/)).not.toBeInTheDocument();
  });

  it('shares the referral link through the system share sheet where there is one', async () => {
    const share = vi.fn<(data: ShareData) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
    try {
      stubFetch({ ...signedIn(), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) });
      const { user } = renderApp('/settings');

      const card = await screen.findByRole('region', { name: 'Invite others' });
      await user.click(within(card).getByRole('button', { name: 'Share' }));
      expect(share).toHaveBeenCalledWith({ title: expect.any(String), text: expect.any(String), url: referral.link });
      expect(within(card).getByRole('button', { name: 'Copy' })).toBeInTheDocument();

      // Closing the share sheet is no error; a failure points to the Copy button.
      share.mockRejectedValueOnce(new DOMException('Share canceled', 'AbortError'));
      await user.click(within(card).getByRole('button', { name: 'Share' }));
      expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
      share.mockRejectedValueOnce(new DOMException('Not allowed', 'NotAllowedError'));
      await user.click(within(card).getByRole('button', { name: 'Share' }));
      expect(await within(card).findByRole('alert')).toHaveTextContent('Could not share. Copy the link instead.');
    } finally {
      delete (navigator as { share?: unknown }).share;
    }
  });
});

/** The value beside a term in a card's list of facts. */
function factOf(card: HTMLElement, term: string): string | null {
  return within(card).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

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
          ? apiError(400, 'invalid_request', 'The current password is not right', {
              fields: [{ path: 'currentPassword', message: 'This is not your current password' }],
            })
          : noContent,
    });
    const { user } = renderApp('/security');

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

describe('deleting the workspace', () => {
  it('asks its owner for the name again, says what goes, and then carries on in their next workspace', async () => {
    const next = { ...session('paid'), workspace: { ...session('paid').workspace, id: 'ws_2', name: 'Difference Engines', role: 'member' as const } };
    const network = stubFetch({
      ...signedIn(),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/me/referral': json(referral),
      'DELETE /api/dashboard/workspaces/current': ({ body }) =>
        (body as { name: string }).name === 'Analytical Engines' ? json({ session: next }) : apiError(400, 'invalid_request', 'Type the workspace’s name exactly as it is, to confirm'),
    });
    const { user } = renderApp('/settings');

    const section = await screen.findByRole('region', { name: 'Delete workspace' });
    await user.click(within(section).getByRole('button', { name: 'Delete workspace…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Analytical Engines” for good?' });
    expect(dialog).toHaveTextContent('Members who belong to no other workspace lose their account.');
    const confirm = within(dialog).getByRole('button', { name: 'Delete workspace' });
    const name = within(dialog).getByRole('textbox', { name: 'Type the workspace’s name to confirm' });
    await user.type(name, 'Analytical Engine{Enter}');
    // Nearly the name, and Enter: nothing is sent.
    expect(confirm).toBeDisabled();
    expect(network.requestsTo('DELETE /api/dashboard/workspaces/current')).toHaveLength(0);

    await user.type(name, 's');
    await user.click(confirm);
    expect(network.requestsTo('DELETE /api/dashboard/workspaces/current')[0]?.body).toEqual({ name: 'Analytical Engines' });
    // On with the transfers of the workspace the session moved to, named in the header.
    expect(await screen.findByRole('heading', { level: 1, name: 'Transfers' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Workspace: Difference Engines');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('is not offered to an admin', async () => {
    const admin = { ...session(), workspace: { ...session().workspace, role: 'admin' as const } };
    stubFetch({ ...signedIn(), 'GET /api/dashboard/session': json(admin), 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) });
    renderApp('/settings');

    await screen.findByRole('region', { name: 'Workspace' });
    expect(screen.queryByRole('region', { name: 'Delete workspace' })).not.toBeInTheDocument();
  });
});
