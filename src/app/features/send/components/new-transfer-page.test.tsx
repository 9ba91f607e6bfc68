import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Transfer } from '../../../../contract/transfers';
import { contactKeys } from '../../../lib/contacts';
import { apiError, json, noContent, stubFetch } from '../../../test/fetch-stub';
import { account, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { notificationSettingsKey } from '../../settings';
import type { PlanLimits } from '../api/get-plan-limits';
import { detailsStorageKey } from '../details-store';
import { draftStorageKey } from '../draft-session';
import { TransferDetailsForm, type UploadProgress } from './transfer-details-form';

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
    recipientLanguages: {},
    e2ee: false,
    downloadCount: 0,
    maxDownloads: 3,
    finalizedAt: '2026-11-22T10:00:00.000Z',
    sendRequestedAt: overrides.finalizedAt === undefined ? '2026-11-22T10:00:00.000Z' : overrides.finalizedAt,
    expiresAt: '2026-11-29T10:00:00.000Z',
    createdAt: '2026-11-22T09:50:00.000Z',
    fileCount: 2,
    hasPassword: true,
    message: null,
    notifications: { downloads: true, beforeExpiry: true },
    files: [],
    sentBy: { kind: 'member', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' },
    ...overrides,
  };
}

const uploaded: UploadProgress = { fileCount: 2, uploadedCount: 2, done: true };
const uploading: UploadProgress = { fileCount: 2, uploadedCount: 1, done: false };

/** The details form as the page uses it; what it hands on once sent is kept for the assertions. */
function renderForm(limits: PlanLimits = freeLimits, upload: UploadProgress = uploaded) {
  const sent: Transfer[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // The workspace's notification defaults, as the route's loader would have them.
  queryClient.setQueryDefaults(notificationSettingsKey, { staleTime: Infinity });
  queryClient.setQueryData(notificationSettingsKey, { downloads: true, beforeExpiry: true });
  // An empty address book, already loaded: the recipients field suggests nothing and fetches nothing.
  queryClient.setQueryDefaults(contactKeys.list, { staleTime: Infinity });
  queryClient.setQueryData(contactKeys.list, []);
  const user = userEvent.setup();
  const form = (progress: UploadProgress) => (
    <QueryClientProvider client={queryClient}>
      <TransferDetailsForm workspaceId="ws_1" transferId="tr_1" upload={progress} limits={limits} onSent={(transfer) => sent.push(transfer)} />
    </QueryClientProvider>
  );
  const view = render(form(upload));
  return {
    user,
    sent,
    setUpload: (progress: UploadProgress) => view.rerender(form(progress)),
    unmount: view.unmount,
    /** The page opened again after the tab was closed: a new form, the same storage. */
    remount: (progress: UploadProgress) => {
      const again = render(form(progress));
      return { setUpload: (next: UploadProgress) => again.rerender(form(next)) };
    },
  };
}

beforeEach(() => window.localStorage.clear());

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
    // The word being typed may be a contact's name being looked up: it is judged once a separator finishes it.
    await user.type(recipients, 'grace@example.com, not-an-address');
    expect(recipients).not.toHaveAttribute('aria-invalid');
    await user.type(recipients, ' ');
    expect(recipients).toHaveAccessibleDescription(expect.stringContaining('“not-an-address” is not a valid email address.'));
    expect(recipients).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Remove not-an-address' }));
    await user.type(recipients, 'grace@example.com Grace@Example.com ada@example.com,');
    expect(recipients).not.toHaveAttribute('aria-invalid');
    const chips = within(screen.getByRole('list', { name: 'Will be emailed' })).getAllByRole('listitem');
    expect(chips.map((chip) => chip.textContent)).toEqual(['grace@example.com', 'ada@example.com']);
  });

  it('judges the recipient still being typed when Send is pressed', async () => {
    const network = stubFetch({ ...signedIn('free') });
    const { user, sent } = renderForm();
    const recipients = screen.getByLabelText('Recipients');
    await user.type(recipients, 'grace@example.com, ada');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(recipients).toHaveAccessibleDescription(expect.stringContaining('“ada” is not a valid email address.'));
    expect(sent).toHaveLength(0);
    expect(network.requests.filter((request) => request.path.includes('/transfers/'))).toHaveLength(0);
  });

  it('sends only from the Send button: Enter in any field sends nothing, and in Recipients finishes the address', async () => {
    const network = stubFetch({
      ...signedIn('paid'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
    });
    const { user, sent } = renderForm(paidLimits);
    await user.type(screen.getByLabelText('Recipients'), 'grace@example.com{Enter}');
    expect(within(screen.getByRole('list', { name: 'Will be emailed' })).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual([
      'grace@example.com',
    ]);
    await user.type(screen.getByLabelText('Title'), 'Holiday photos{Enter}');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    await user.type(screen.getByLabelText('Download limit'), '3{Enter}');
    await user.type(screen.getByLabelText('Message'), 'Line one{Enter}line two');
    expect(screen.getByLabelText('Message')).toHaveValue('Line one\nline two');
    expect(sent).toHaveLength(0);
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();

    // Keyboard activation of the button itself is a deliberate send.
    screen.getByRole('button', { name: 'Send' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[0]!.body).toMatchObject({ title: 'Holiday photos', recipients: ['grace@example.com'] });
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
    expect(screen.getByLabelText('Download limit')).toHaveAccessibleDescription(expect.stringContaining('One download is one visit to the link'));
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

  it('mails a recipient in the language chosen for them, and the others in the default', async () => {
    const network = stubFetch({
      ...signedIn('paid'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
    });
    const { user, sent } = renderForm(paidLimits);
    expect(screen.queryByText('Language of their mail')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Recipients'), 'grace@example.com lin@example.com ');
    await user.click(screen.getByText('Language of their mail'));
    const grace = screen.getByRole('combobox', { name: 'grace@example.com' });
    expect(grace).toHaveValue('');
    expect(within(grace).getByRole('option', { name: 'The same as yours' })).toBeInTheDocument();
    // Each language by its own name, marked as written in it.
    expect(within(grace).getByRole('option', { name: '日本語' })).toHaveAttribute('lang', 'ja');
    await user.selectOptions(grace, 'Polski');
    expect(screen.getByText('– 1 chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    const [update] = network.requestsTo('PATCH /api/v1/transfers/tr_1');
    expect(update!.body).toMatchObject({ recipients: ['grace@example.com', 'lin@example.com'], recipientLanguages: { 'grace@example.com': 'pl' } });
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
    expect(update!.body).toEqual({ title: null, message: null, recipients: [], recipientLanguages: {}, password: null, maxDownloads: null });
  });

  it('shows a field the server refused next to that field', async () => {
    stubFetch({
      ...signedIn('free'),
      'PATCH /api/v1/transfers/:id': apiError(400, 'invalid_request', 'The request is invalid', { fields: [{ path: 'password', message: 'password must be at least 4 characters' }] }),
    });
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Password'), 'abcd');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(expect.stringContaining('Use at least 4 characters.')));
  });
});

describe('Sending while files upload', () => {
  it('takes Send at once, stores the details on the draft, and sends when the last file is up', async () => {
    const network = stubFetch({
      ...signedIn('free'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
    });
    const { user, sent, setUpload } = renderForm(freeLimits, uploading);
    await user.type(screen.getByLabelText('Title'), 'Holiday photos');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Sending as soon as the last file is uploaded');
    expect(screen.getByRole('status')).toHaveTextContent('1 of 2 files uploaded');
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')).toHaveLength(1));
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);

    // A change made while waiting still goes out with it.
    await user.type(screen.getByLabelText('Message'), 'Enjoy');
    setUpload(uploaded);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1);
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1').at(-1)!.body).toMatchObject({ title: 'Holiday photos', message: 'Enjoy' });
  });

  it('can be called off before the uploads finish', async () => {
    const network = stubFetch({ ...signedIn('free'), 'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })) });
    const { user, sent, setUpload } = renderForm(freeLimits, uploading);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(await screen.findByRole('button', { name: 'Don’t send yet' }));
    setUpload(uploaded);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);
    expect(sent).toHaveLength(0);
  });

  it('keeps what was typed and a pending Send across closing the tab, but never the password', async () => {
    const network = stubFetch({
      ...signedIn('paid'),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
    });
    const first = renderForm(paidLimits, uploading);
    await first.user.type(screen.getByLabelText('Title'), 'Q3 numbers');
    await first.user.type(screen.getByLabelText('Message'), 'Line one');
    await first.user.type(screen.getByLabelText('Recipients'), 'grace@example.com');
    await first.user.type(screen.getByLabelText('Password'), 'secret');
    await first.user.selectOptions(screen.getByLabelText('Expires after'), '14');
    await first.user.click(screen.getByLabelText('Email me when it is downloaded'));
    await first.user.click(screen.getByRole('button', { name: 'Send' }));
    // What is typed is saved on the draft as it is typed (never the password); Send stores the rest.
    const withPassword = () => network.requestsTo('PATCH /api/v1/transfers/tr_1').filter((request) => (request.body as { password?: string }).password);
    await waitFor(() => expect(withPassword()).toHaveLength(1));
    expect(withPassword()[0]!.body).toMatchObject({ password: 'secret', notifications: { downloads: false, beforeExpiry: true } });
    expect(JSON.stringify(window.localStorage)).not.toContain('secret');
    first.unmount();

    const second = first.remount(uploading);
    expect(screen.getByLabelText('Title')).toHaveValue('Q3 numbers');
    expect(screen.getByLabelText('Message')).toHaveValue('Line one');
    expect(screen.getByLabelText('Recipients')).toHaveValue('grace@example.com');
    expect(screen.getByLabelText('Expires after')).toHaveValue('14');
    expect(screen.getByLabelText('Email me when it is downloaded')).not.toBeChecked();
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(expect.stringContaining('The password you set before is kept'));
    expect(screen.getByRole('status')).toHaveTextContent('Not sent yet');

    // Back later with everything uploaded: it says so and waits for one click, rather than mailing anyone by itself.
    second.setUpload(uploaded);
    expect(await screen.findByRole('status')).toHaveTextContent('Everything is uploaded now: press Send.');
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);
    await first.user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(first.sent).toHaveLength(1));
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1);
    // The stored password is kept: the final update does not touch it.
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1').at(-1)!.body).not.toHaveProperty('password');
  });
});

describe('Coming back to a draft sent too early', () => {
  const remembered = {
    transferId: 'tr_1',
    files: { 'uppy-a': { fileId: 'fi_1', name: 'a.txt', size: 8, path: null, uploadToken: 'tok', uploadTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString() } },
  };
  function remember(pending: boolean) {
    window.localStorage.setItem(draftStorageKey('ws_1'), JSON.stringify(remembered));
    window.localStorage.setItem(
      detailsStorageKey('ws_1'),
      JSON.stringify({
        details: { title: 'Holiday photos', message: '', recipientsText: 'grace@example.com', expiryDays: '7', maxDownloads: '', notifications: null },
        pending: pending ? { transferId: 'tr_1', passwordOnDraft: false } : null,
      }),
    );
  }

  it('needs no file added again when the server has them all, and sends with one click', async () => {
    remember(true);
    const network = stubFetch({
      ...signedIn('free'),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null, files: [{ id: 'fi_1', name: 'a.txt', sizeBytes: 8, mimeType: 'text/plain', path: null, scanResult: null, scanSignature: null, crc32: '00000000', state: 'complete', error: null, createdAt: '2026-11-22T09:50:00.000Z' }] })),
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
      'GET /api/v1/transfers/:id/downloads': json({ recipients: [], downloads: [], totalDownloads: 0 }),
    });
    const { user } = renderApp('/transfers/new');
    const earlier = await screen.findByRole('list', { name: 'Uploaded in your earlier visit' });
    expect(within(earlier).getByRole('listitem')).toHaveTextContent('a.txt8 bytes · Uploaded in your earlier visit');
    expect(screen.queryByRole('region', { name: 'Resume your unfinished transfer' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Holiday photos');
    const form = screen.getByRole('form', { name: 'Transfer details' });
    expect(await within(form).findByText('Everything is uploaded now: press Send.', { exact: false })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1));
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[0]!.body).toMatchObject({ title: 'Holiday photos', recipients: ['grace@example.com'] });
  });

  it('starts from the details on the draft, and keeps what is typed on the draft as it is typed', async () => {
    remember(false);
    // This browser kept an older title; the draft on the server was changed since (say, in another tab).
    const onServer = sentTransfer({ finalizedAt: null, title: 'Holiday photos 2026', recipients: ['ada@example.com'], recipientLanguages: { 'ada@example.com': 'de' }, files: [] });
    const network = stubFetch({
      ...signedIn('free'),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/transfers/:id': json(onServer),
      'PATCH /api/v1/transfers/:id': json(onServer),
    });
    const { user } = renderApp('/transfers/new');
    const title = await screen.findByLabelText('Title');
    expect(title).toHaveValue('Holiday photos 2026');
    expect(within(screen.getByRole('list', { name: 'Will be emailed' })).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['ada@example.com']);
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')).toHaveLength(0);

    await user.type(title, ' (final)');
    await user.type(screen.getByLabelText('Recipients'), 'lin@example.com, gra');
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')).not.toHaveLength(0));
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1').at(-1)!.body).toEqual({
      title: 'Holiday photos 2026 (final)',
      message: null,
      // The word still being typed is not an address yet.
      recipients: ['ada@example.com', 'lin@example.com'],
      // The language chosen for a recipient on the draft stays theirs.
      recipientLanguages: { 'ada@example.com': 'de' },
      maxDownloads: 3,
    });
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(0);
  });

  it('forgets a draft that was deleted meanwhile and starts afresh', async () => {
    remember(false);
    stubFetch({ ...signedIn('free'), 'GET /api/v1/me': json(account()), 'GET /api/v1/transfers/:id': apiError(404, 'not_found', 'Transfer not found') });
    renderApp('/transfers/new');
    await waitFor(() => expect(window.localStorage.getItem(draftStorageKey('ws_1'))).toBeNull());
    // The page re-renders after the stored draft is dropped: the resume notice goes with it.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Resume your unfinished transfer' })).not.toBeInTheDocument());
    expect(screen.getByLabelText('Title')).toHaveValue('');
  });
});

describe('Adding files from URLs', () => {
  const source = 'https://downloads.example.com/report.pdf';
  function importStatus(overrides: Record<string, unknown> = {}) {
    return { fileId: 'fi_9', name: 'report.pdf', size: 3_000_000, receivedBytes: 0, source, status: 'importing', ...overrides };
  }
  function importServer(status: () => Record<string, unknown>) {
    return stubFetch({
      ...signedIn('free'),
      'GET /api/v1/me': json(account()),
      'POST /api/v1/transfers': json(
        {
          id: 'tr_1',
          slug: 'abc',
          expiresAt: '2026-11-29T10:00:00.000Z',
          maxBytes: 2_000_000_000,
          tusEndpoint: 'http://localhost:8080/files/',
          files: [],
          imports: [{ fileId: 'fi_9', name: 'report.pdf', size: null, source, status: 'importing' }],
        },
        201,
      ),
      'GET /api/v1/imports/:fileId': () => json(status()),
      'DELETE /api/v1/transfers/:id/files/:fileId': noContent,
      'PATCH /api/v1/transfers/:id': json(sentTransfer({ finalizedAt: null })),
      'POST /api/v1/transfers/:id/finalize': json(sentTransfer()),
      'GET /api/v1/transfers/:id': json(sentTransfer()),
      'GET /api/v1/transfers/:id/downloads': json({ recipients: [], downloads: [], totalDownloads: 0 }),
    });
  }

  async function addFromUrl(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Add from URL' }));
    const dialog = screen.getByRole('dialog', { name: 'Add from URL' });
    await user.type(within(dialog).getByLabelText('File URL'), source);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }

  it('creates the draft with the import, shows its progress, then says it is ready', async () => {
    let status = importStatus({ receivedBytes: 0, size: null });
    const network = importServer(() => status);
    const { user } = renderApp('/transfers/new');
    await addFromUrl(user);

    expect(network.requestsTo('POST /api/v1/transfers')[0]!.body).toEqual({ files: [], imports: [{ url: source }] });
    const list = screen.getByRole('list', { name: 'Files from URLs' });
    expect(await within(list).findByRole('progressbar', { name: 'Importing report.pdf' })).toHaveAttribute('aria-valuetext', 'Waiting for the other server…');
    expect(screen.getByText('report.pdf added: the service is fetching it.')).toBeInTheDocument();
    expect(screen.getByText(/1 file is still being imported from a URL: the transfer can be sent now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();

    status = importStatus({ receivedBytes: 1_000_000 });
    await waitFor(() => expect(within(list).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33'), { timeout: 4000 });
    status = importStatus({ status: 'ready', receivedBytes: 3_000_000 });
    expect(await within(list).findByText('Ready · 3 MB', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(within(list).getByRole('status')).toHaveTextContent('report.pdf is imported.');
    expect(screen.queryByText(/still being imported/)).not.toBeInTheDocument();
  });

  it('sends while the import still runs: the server mails recipients when it lands', async () => {
    const network = importServer(() => importStatus({ receivedBytes: 0 }));
    const { user } = renderApp('/transfers/new');
    await addFromUrl(user);
    await screen.findByRole('progressbar', { name: 'Importing report.pdf' });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1));
  });

  it('says why an import failed, holds Send back until it is removed, and removes it', async () => {
    const network = importServer(() => importStatus({ status: 'failed', error: 'The server answered 404 Not Found.' }));
    const { user } = renderApp('/transfers/new');
    await addFromUrl(user);

    const remove = await screen.findByRole('button', { name: 'Remove report.pdf' });
    expect(remove).toHaveAccessibleDescription('The server answered 404 Not Found.');
    expect(screen.getByRole('list', { name: 'Files from URLs' })).toHaveTextContent('Import failed');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription('An import failed: remove it (you can add the address again) to send.');

    await user.click(remove);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Files from URLs' })).not.toBeInTheDocument());
    expect(network.requestsTo('DELETE /api/v1/transfers/tr_1/files/fi_9')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveAccessibleDescription('Add at least one file to send.');
  });

  it('finds the imports of a draft an earlier visit left', async () => {
    window.localStorage.setItem(draftStorageKey('ws_1'), JSON.stringify({ ownerId: 'tr_1', files: {} }));
    stubFetch({
      ...signedIn('free'),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/transfers/:id': json(
        sentTransfer({
          finalizedAt: null,
          files: [{ id: 'fi_9', name: 'report.pdf', sizeBytes: 3_000_000, mimeType: 'application/pdf', path: null, scanResult: null, scanSignature: null, crc32: null, state: 'importing', error: null, createdAt: '2026-11-22T09:50:00.000Z' }],
        }),
      ),
      'GET /api/v1/imports/:fileId': json(importStatus({ receivedBytes: 0 })),
    });
    renderApp('/transfers/new');
    const list = await screen.findByRole('list', { name: 'Files from URLs' });
    expect(await within(list).findByRole('progressbar', { name: 'Importing report.pdf' })).toBeInTheDocument();
    expect(within(list).getByText(`From ${source}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
});
