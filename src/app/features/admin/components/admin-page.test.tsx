import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminPerson, AdminWorkspace, Session } from '../../../../contract/dashboard';
import { json, stubFetch } from '../../../test/fetch-stub';
import { session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

function adminWorkspace(overrides: Partial<AdminWorkspace> = {}): AdminWorkspace {
  return {
    id: 'ws_1',
    name: 'Analytical Engines',
    ownerEmail: 'ada@example.com',
    plan: 'paid',
    planUntil: null,
    createdAt: '2026-09-01T00:00:00.000Z',
    disabled: false,
    transferCount: 3,
    storageBytes: 1500,
    apiCallsThisMonth: 12,
    isOwn: true,
    ...overrides,
  };
}

/** The operator's server: their own workspace and one other, whose plans the PATCH stub really changes. */
function operatorServer(billing: Session['billing'] = 'on') {
  const workspaces = [adminWorkspace(), adminWorkspace({ id: 'ws_2', name: 'Babbage & Co', ownerEmail: 'charles@example.com', plan: 'free', isOwn: false })];
  const own = () => workspaces[0]!;
  const people: AdminPerson[] = [
    { id: 'usr_1', name: null, email: 'ada@example.com', createdAt: '2026-09-01T00:00:00.000Z', disabled: false, isOperator: true, isYou: true, workspaces: [{ id: 'ws_1', name: 'Analytical Engines', role: 'owner' }] },
    {
      id: 'usr_2',
      name: '<b>Charles</b>',
      email: 'charles@example.com',
      createdAt: '2026-10-01T00:00:00.000Z',
      disabled: false,
      isOperator: false,
      isYou: false,
      workspaces: [
        { id: 'ws_2', name: 'Babbage & Co', role: 'owner' },
        { id: 'ws_1', name: 'Analytical Engines', role: 'member' },
      ],
    },
  ];
  return stubFetch({
    ...signedIn(),
    'GET /api/dashboard/session': () => json(session(own().plan, true, billing)),
    'GET /api/dashboard/admin/workspaces': () => json({ workspaces }),
    'GET /api/dashboard/admin/invites': json({ invites: [] }),
    'GET /api/dashboard/admin/people': () => json({ people }),
    'PATCH /api/dashboard/admin/people/:id': (request) => {
      const index = people.findIndex((p) => p.id === request.params.id);
      people[index] = { ...people[index]!, ...(request.body as Partial<AdminPerson>) };
      return json({ person: people[index] });
    },
    'PATCH /api/dashboard/admin/workspaces/:id': (request) => {
      const index = workspaces.findIndex((w) => w.id === request.params.id);
      workspaces[index] = { ...workspaces[index]!, ...(request.body as Partial<AdminWorkspace>) };
      return json({ workspace: workspaces[index] });
    },
  });
}

const header = () => screen.getByRole('banner');

describe('Admin page', () => {
  it('confirms a plan change politely, and the header badge follows a change of the operator\'s own plan without a reload', async () => {
    operatorServer();
    const { user } = renderApp('/admin');
    await screen.findByRole('heading', { name: 'Workspaces (2)' });
    expect(within(header()).getByText('Paid')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Plan of Babbage & Co'), 'paid');
    expect(await screen.findByText('Plan of Babbage & Co changed to paid.')).toHaveAttribute('role', 'status');
    // Another workspace's plan leaves the operator's badge alone.
    expect(within(header()).getByText('Paid')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Plan of Analytical Engines'), 'free');
    expect(await screen.findByText('Plan of Analytical Engines changed to free.')).toHaveAttribute('role', 'status');
    expect(await within(header()).findByText('Free')).toBeInTheDocument();
    expect(within(header()).queryByText('Paid')).not.toBeInTheDocument();
  });

  it('offers no plan controls and shows no plan badge on a server that bills nobody', async () => {
    operatorServer('off');
    renderApp('/admin');
    await screen.findByRole('heading', { name: 'Workspaces (2)' });
    expect(screen.queryByLabelText(/^Plan of/)).not.toBeInTheDocument();
    expect(within(header()).queryByText(/^(Paid|Free)$/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable Babbage & Co' })).toBeInTheDocument();
  });

  it('lists people with their workspaces and roles, and disables one only after confirming', async () => {
    const net = operatorServer();
    const { user } = renderApp('/admin');
    const people = await screen.findByRole('region', { name: /People/ });
    expect(within(people).getByRole('list', { name: 'Workspaces of <b>Charles</b>' })).toHaveTextContent('Babbage & Co (owner)Analytical Engines (member)');
    expect(within(people).queryByRole('button', { name: 'Disable ada@example.com' })).not.toBeInTheDocument();
    await user.click(within(people).getByRole('button', { name: 'Disable <b>Charles</b>' }));
    expect(net.requestsTo('PATCH /api/dashboard/admin/people/usr_2')).toHaveLength(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable' }));
    expect(await within(people).findByText('<b>Charles</b> is disabled: signed out everywhere.')).toBeInTheDocument();
    expect(net.requestsTo('PATCH /api/dashboard/admin/people/usr_2')[0]!.body).toEqual({ disabled: true });
    expect(within(people).getByRole('button', { name: 'Enable <b>Charles</b>' })).toBeInTheDocument();
  });
});
