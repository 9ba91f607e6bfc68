import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityPage } from '../../../../contract/activity';
import { json, stubFetch } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const ada = { type: 'member' as const, id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' };
const grace = { type: 'member' as const, id: 'usr_2', name: '<img src=x onerror=alert(1)>', email: 'grace@example.com' };

function page(entries: ActivityPage['entries'], nextCursor: string | null = null): ActivityPage {
  return { entries, nextCursor, retentionDays: 365 };
}

const newest = page(
  [
    { id: 'act_3', at: '2026-11-20T10:02:00.000Z', kind: 'transfer.sent', actor: grace, subject: { type: 'transfer', id: 'tr_1', name: 'Quarterly report' }, detail: { files: 3, recipients: 2, encrypted: false } },
    { id: 'act_2', at: '2026-11-20T10:01:00.000Z', kind: 'api_key.created', actor: ada, subject: { type: 'api_key', id: 'key_1', name: 'Nightly export' }, detail: {} },
  ],
  'cursor-1',
);
const older = page([{ id: 'act_1', at: '2026-11-20T10:00:00.000Z', kind: 'member.invited', actor: ada, subject: { type: 'invitation', id: 'inv_1', name: 'grace@example.com' }, detail: { role: 'member' } }]);
const members = {
  members: [
    { id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner', joinedAt: '2026-09-01T00:00:00.000Z', disabled: false },
    { id: 'usr_2', name: 'Grace', email: 'grace@example.com', role: 'member', joinedAt: '2026-11-01T00:00:00.000Z', disabled: false },
  ],
  invitations: [],
};

describe('the activity page', () => {
  it('tells who did what as sentences, untrusted names as text, and reads older entries on request', async () => {
    const net = stubFetch({
      ...signedIn('paid'),
      'GET /api/dashboard/members': json(members),
      'GET /api/dashboard/activity': (req) => json(req.url.searchParams.get('cursor') === 'cursor-1' ? older : newest),
    });
    const { user } = renderApp('/activity');

    const log = await screen.findByRole('list', { name: 'Activity, newest first' });
    const [sent, created] = within(log).getAllByRole('listitem');
    expect(sent).toHaveTextContent('<img src=x onerror=alert(1)> sent Quarterly report with 3 files to 2 recipients');
    expect(sent!.querySelector('img')).toBeNull();
    expect(within(sent!).getByRole('link', { name: 'Quarterly report' })).toHaveAttribute('href', '/transfers/tr_1');
    expect(created).toHaveTextContent('Ada Lovelace created the API key Nightly export');
    expect(screen.getByText('Entries are kept 365 days.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await within(log).findByText(/invited/)).toHaveTextContent('invited grace@example.com as member');
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
    expect(net.requestsTo('GET /api/dashboard/activity').map((r) => r.url.searchParams.get('cursor'))).toEqual([null, 'cursor-1']);
  });

  it('filters by person and kind through the address, and exports what the filters show', async () => {
    const net = stubFetch({ ...signedIn('paid'), 'GET /api/dashboard/members': json(members), 'GET /api/dashboard/activity': json(newest) });
    const { user } = renderApp('/activity');

    await screen.findByRole('option', { name: 'Grace' });
    await user.selectOptions(screen.getByLabelText('Person'), 'usr_2');
    await user.selectOptions(screen.getByLabelText('What'), 'transfer.sent');
    await waitFor(() => expect(net.requestsTo('GET /api/dashboard/activity').at(-1)!.url.search).toBe('?actor=usr_2&kind=transfer.sent&limit=50'));
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/dashboard/activity/export?actor=usr_2&kind=transfer.sent');
  });

  it('is in the menu of owners and admins only', async () => {
    stubFetch({ ...signedIn('paid'), 'GET /api/dashboard/members': json(members), 'GET /api/dashboard/activity': json(newest) });
    renderApp('/activity');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Activity' })).toHaveAttribute('href', '/activity');
  });
});
