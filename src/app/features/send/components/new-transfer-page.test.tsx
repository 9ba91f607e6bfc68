import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../../../contract/transfers';
import { apiError, json, stubFetch } from '../../../test/fetch-stub';
import { account, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { PlanLimits } from '../api/get-plan-limits';
import { TransferDetailsForm } from './transfer-details-form';

const freeLimits = account().plan.limits;
const paidLimits: PlanLimits = {
  ...freeLimits,
  transferExpiry: { defaultDays: 7, choosable: true, minimumHours: 48, minimumSeconds: 48 * 3600, maximumDays: 30 },
};

function sentTransfer(overrides: Partial<Transfer> = {}): Transfer {
  return {
    id: 'tr_1',
    slug: 'k7qx2m9p',
    url: 'http://localhost:8080/t/k7qx2m9p',
    title: 'Holiday photos',
    status: 'active',
    sizeBytes: 8,
    recipients: ['grace@example.com'],
    e2ee: false,
    downloadCount: 0,
    maxDownloads: 3,
    finalizedAt: '2026-11-22T10:00:00.000Z',
    expiresAt: '2026-11-29T10:00:00.000Z',
    createdAt: '2026-11-22T09:50:00.000Z',
    fileCount: 2,
    hasPassword: true,
    message: null,
    notifications: { downloads: true, beforeExpiry: true },
    files: [],
    ...overrides,
  };
}

/** The details form as the page uses it; what it hands on once sent is kept for the assertions. */
function Harness({ limits = freeLimits, onSent }: { limits?: PlanLimits; onSent: (transfer: Transfer) => void }) {
  return <TransferDetailsForm transferId="tr_1" canSend limits={limits} onSent={onSent} />;
}

function renderForm(limits?: PlanLimits) {
  const sent: Transfer[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <Harness limits={limits} onSent={(transfer) => sent.push(transfer)} />
    </QueryClientProvider>,
  );
  return { user, sent };
}

describe('New transfer page', () => {
  it('shows the uploader and, on the free plan, the fixed expiry as text', async () => {
    stubFetch({ ...signedIn('free'), 'GET /api/v1/me': json(account()) });
    renderApp('/transfers/new');
    expect(await screen.findByRole('heading', { name: 'New transfer' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Files to send' })).toBeInTheDocument();
    expect(screen.getByText(/The link expires after 7 days/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Expires after')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByText('Add at least one file to send.')).toBeInTheDocument();
  });
});

describe('Transfer details form', () => {
  it('validates recipients as they are typed and collapses duplicates', async () => {
    const { user } = renderForm();
    const recipients = screen.getByLabelText('Recipients');
    await user.type(recipients, 'grace@example.com, not-an-address');
    expect(recipients).toHaveAccessibleDescription(expect.stringContaining('“not-an-address” is not a valid email address.'));
    expect(recipients).toHaveAttribute('aria-invalid', 'true');

    await user.clear(recipients);
    await user.type(recipients, 'grace@example.com Grace@Example.com ada@example.com');
    expect(recipients).not.toHaveAttribute('aria-invalid');
    const chips = within(screen.getByRole('list', { name: 'Will be emailed' })).getAllByRole('listitem');
    expect(chips.map((chip) => chip.textContent)).toEqual(['grace@example.com', 'ada@example.com']);
  });

  it('offers a paid plan a choice of expiry within its range', () => {
    renderForm(paidLimits);
    const select = screen.getByLabelText('Expires after');
    const options = within(select).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['3 days', '7 days', '14 days', '30 days']);
    expect(select).toHaveValue('7');
  });

  it('applies the details to the draft, sends it, and hands on the sent transfer', async () => {
    const network = stubFetch({
      ...signedIn('paid'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
    });
    const { user, sent } = renderForm(paidLimits);
    await user.type(screen.getByLabelText('Title'), 'Holiday photos');
    await user.type(screen.getByLabelText('Message'), 'Enjoy!');
    await user.type(screen.getByLabelText('Recipients'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.selectOptions(screen.getByLabelText('Expires after'), '14');
    await user.type(screen.getByLabelText('Download limit'), '3');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('http://localhost:8080/t/k7qx2m9p');
    const [update] = network.requestsTo('PATCH /api/v1/transfers/tr_1');
    expect(update!.body).toMatchObject({
      title: 'Holiday photos',
      message: 'Enjoy!',
      recipients: ['grace@example.com'],
      password: 'secret',
      maxDownloads: 3,
    });
    const expiresAt = Date.parse((update!.body as { expiresAt: string }).expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1);
    const order = network.requests.map((r) => `${r.method} ${r.path}`).filter((r) => r.includes('/transfers/'));
    expect(order).toEqual(['PATCH /api/v1/transfers/tr_1', 'POST /api/v1/transfers/tr_1/finalize']);
  });

  it('does not send the free plan an expiry, and shows a refused send next to the button', async () => {
    const network = stubFetch({
      ...signedIn('free'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': apiError(409, 'conflict', 'Some files have not finished uploading.', { reason: 'uploads_incomplete' }),
    });
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Some files have not finished uploading.');
    const [update] = network.requestsTo('PATCH /api/v1/transfers/tr_1');
    expect(update!.body).toEqual({ title: null, message: null, recipients: [], password: null, maxDownloads: null });
  });

  it('shows a field the server refused next to that field', async () => {
    stubFetch({
      ...signedIn('free'),
      'PATCH /api/v1/transfers/:id': apiError(400, 'invalid_request', 'The request is invalid', { fields: [{ path: 'password', message: 'password must be at least 4 characters' }] }),
    });
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Password'), 'abcd');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(expect.stringContaining('password must be at least 4 characters')));
  });
});
