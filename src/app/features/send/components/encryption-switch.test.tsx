import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Transfer } from '../../../../contract/transfers';
import { contactKeys } from '../../../lib/contacts';
import { json, stubFetch } from '../../../test/fetch-stub';
import { account, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { notificationSettingsKey } from '../../settings';
import { TransferDetailsForm, type SentWith } from './transfer-details-form';

beforeEach(() => window.localStorage.clear());

describe('End-to-end encrypt switch', () => {
  it('says what it means, and takes away imports and the password when on', async () => {
    stubFetch({ ...signedIn('free'), 'GET /api/v1/me': json(account()) });
    const user = userEvent.setup();
    renderApp('/transfers/new');
    const toggle = await screen.findByRole('switch', { name: 'End-to-end encrypt' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(expect.stringContaining('lose the link and nobody, not even us, can open the files'));
    expect(screen.getByRole('button', { name: 'Add from URL' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Add from URL' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByText(/Not offered for an encrypted transfer/)).toBeInTheDocument();
    expect(screen.getByLabelText('Recipients')).toHaveAccessibleDescription(expect.stringContaining('your own mail app'));
  });
});

describe('Sending an encrypted draft', () => {
  it('keeps the title, message and recipients out of the request bodies and finalizes with the sealed meta', async () => {
    const transfer = { id: 'tr_1', url: 'http://localhost:8080/t/abc', e2ee: true, expiresAt: '2026-12-01T10:00:00.000Z' } as Transfer;
    const network = stubFetch({
      ...signedIn('free'),
      'PATCH /api/v1/transfers/:id': json({ ...transfer, finalizedAt: null }),
      'POST /api/v1/transfers/:id/finalize': json(transfer),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    queryClient.setQueryDefaults(notificationSettingsKey, { staleTime: Infinity });
    queryClient.setQueryData(notificationSettingsKey, { downloads: true, beforeExpiry: true });
    queryClient.setQueryDefaults(contactKeys.list, { staleTime: Infinity });
    queryClient.setQueryData(contactKeys.list, []);
    const notes: unknown[] = [];
    const sent: SentWith[] = [];
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={queryClient}>
        <TransferDetailsForm
          workspaceId="ws_1"
          transferId="tr_1"
          upload={{ fileCount: 1, uploadedCount: 1, done: true }}
          limits={account().plan.limits}
          encryption={{ seal: async (note) => (notes.push(note), 'SEALED-META') }}
          onSent={(_transfer, sentWith) => sent.push(sentWith)}
        />
      </QueryClientProvider>,
    );
    await user.type(screen.getByLabelText('Title'), 'Board pack');
    await user.type(screen.getByLabelText('Message'), 'For Thursday');
    await user.type(screen.getByLabelText('Recipients'), 'grace@example.com,');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ recipients: ['grace@example.com'], title: 'Board pack', message: 'For Thursday' });
    expect(notes).toEqual([{ title: 'Board pack', message: 'For Thursday' }]);
    const [update] = network.requestsTo('PATCH /api/v1/transfers/tr_1');
    expect(update!.body).toEqual({ maxDownloads: null });
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')[0]!.body).toEqual({ e2eeMeta: 'SEALED-META' });
    for (const request of network.requests) {
      for (const secret of ['Board pack', 'For Thursday', 'grace@example.com']) expect(JSON.stringify(request.body ?? null)).not.toContain(secret);
    }
  });
});
