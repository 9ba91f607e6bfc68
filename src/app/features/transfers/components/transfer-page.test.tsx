import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../../../contract/transfers';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { account, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { TransferDownloads } from '../api/get-transfer-downloads';
import { download, downloadLinks, recipient, transfer as transferFixture, transferDownloads, transferFile } from '../testing/fixtures';

const hour = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const paidAccount = () =>
  account({
    plan: {
      ...account().plan,
      name: 'paid',
      limits: { ...account().plan.limits, transferExpiry: { defaultDays: 7, choosable: true, minimumHours: 1, minimumSeconds: 3600, maximumDays: 30 } },
    },
  });

/** A server holding one transfer that PATCH and revoke change. */
function transferServer({
  plan = 'free' as 'free' | 'paid',
  transfer = transferFixture(),
  downloads = transferDownloads(),
  extra = {} as Record<string, StubHandler>,
} = {}) {
  let stored: Transfer = transfer;
  return stubFetch({
    ...signedIn(plan),
    'GET /api/v1/me': json(plan === 'paid' ? paidAccount() : account()),
    'GET /api/v1/transfers/:id': () => json(stored),
    'GET /api/v1/transfers/:id/downloads': json(downloads satisfies TransferDownloads),
    'PATCH /api/v1/transfers/:id': ({ body }) => {
      stored = { ...stored, ...(body as Partial<Transfer>) };
      return json(stored);
    },
    'POST /api/v1/transfers/:id/finalize': () => {
      stored = { ...stored, finalizedAt: new Date().toISOString() };
      return json(stored);
    },
    'POST /api/v1/transfers/:id/revoke': () => {
      stored = { ...stored, status: 'removed' };
      return json(stored);
    },
    'GET /api/v1/transfers/:id/download-links': json(downloadLinks()),
    'GET /api/v1/transfers': json({ transfers: [], nextCursor: null }),
    ...extra,
  });
}

function section(name: string) {
  return screen.getByRole('region', { name });
}

describe('transfer page', () => {
  it('lists the files with their path, size, type, scan result, CRC-32 and state', async () => {
    transferServer();
    renderApp('/transfers/tr_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Quarterly report' })).toBeInTheDocument();
    const table = within(section('Files')).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Path',
      'Size',
      'Type',
      'Scan',
      'CRC-32',
      'State',
    ]);
    const csv = within(table).getByRole('rowheader', { name: 'q3.csv' }).closest('tr')!;
    expect(within(csv).getAllByRole('cell').map((td) => td.textContent)).toEqual(['data/2026', '500 KB', 'text/csv', 'Clean', '0a1b2c3d', 'Complete']);
    const pdf = within(table).getByRole('rowheader', { name: 'report.pdf' }).closest('tr')!;
    expect(within(pdf).getByRole('cell', { name: 'cbf43926' })).toBeInTheDocument();

    expect(screen.getByText('2.5 MB, 2 files')).toBeInTheDocument();
    expect(screen.getByText('3 / 10')).toBeInTheDocument();
    expect(screen.getByText('Here are the numbers.')).toBeInTheDocument();
  });

  it('shows the link with a QR code while the transfer is live', async () => {
    transferServer();
    renderApp('/transfers/tr_1');

    expect(await screen.findByRole('textbox', { name: 'Transfer link' })).toHaveValue('http://localhost:8080/t/slug1');
    expect(screen.getByRole('img', { name: 'QR code for the transfer link' })).toBeInTheDocument();
    expect(within(section('Link')).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('shows no link for a draft that has not been sent', async () => {
    transferServer({ transfer: transferFixture({ finalizedAt: null }) });
    renderApp('/transfers/tr_1');

    expect(await screen.findByRole('region', { name: 'Not sent yet' })).toBeInTheDocument();
    expect(screen.getByText('Draft')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Transfer link' })).not.toBeInTheDocument();
  });

  it('sends a draft whose files are all up with one click, and then shows its link', async () => {
    const network = transferServer({ transfer: transferFixture({ finalizedAt: null }) });
    const { user } = renderApp('/transfers/tr_1');
    const unsent = await screen.findByRole('region', { name: 'Not sent yet' });
    await user.click(within(unsent).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByRole('textbox', { name: 'Transfer link' })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Not sent yet' })).not.toBeInTheDocument();
  });

  it('sends an encrypted draft only from the browser that holds its key: no Send now here', async () => {
    transferServer({ transfer: transferFixture({ finalizedAt: null, e2ee: true }) });
    renderApp('/transfers/tr_1');
    const unsent = await screen.findByRole('region', { name: 'Not sent yet' });
    expect(unsent).toHaveTextContent('only the browser where you started it holds its key');
    expect(within(unsent).queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
    expect(within(unsent).getByRole('link', { name: 'Open New transfer' })).toHaveAttribute('href', '/transfers/new');
  });

  it('lists a draft\'s infected file for removal; Send now is refused with the server\'s reason until it is removed', async () => {
    const infected = transferFile({ id: 'fi_bad', name: 'invoice.com', scanResult: 'infected', scanSignature: 'Test.EICAR.HDB.UNOFFICIAL' });
    let stored: Transfer = transferFixture({ finalizedAt: null, files: [transferFile({ id: 'fi_ok', name: 'notes.txt', scanResult: 'clean' }), infected] });
    const network = transferServer({
      extra: {
        'GET /api/v1/transfers/:id': () => json(stored),
        'DELETE /api/v1/transfers/:id/files/:fileId': ({ params }) => {
          stored = { ...stored, files: stored.files.filter((f) => f.id !== params.fileId) };
          return json({ deleted: true });
        },
        'POST /api/v1/transfers/:id/finalize': () => {
          if (stored.files.some((f) => f.scanResult === 'infected')) {
            return apiError(409, 'conflict', '“invoice.com” contains malware and cannot be sent: remove it from the transfer, then send it.', {
              reason: 'files_infected',
              infectedFileIds: ['fi_bad'],
            });
          }
          stored = { ...stored, finalizedAt: new Date().toISOString() };
          return json(stored);
        },
      },
    });
    const { user } = renderApp('/transfers/tr_1');
    const unsent = await screen.findByRole('region', { name: 'Not sent yet' });
    expect(unsent).toHaveTextContent('1 file contains malware: the transfer cannot be sent until it is removed.');
    expect(unsent).toHaveTextContent('Test.EICAR.HDB.UNOFFICIAL');

    await user.click(within(unsent).getByRole('button', { name: 'Send now' }));
    expect(await within(unsent).findByRole('alert')).toHaveTextContent('“invoice.com” contains malware and cannot be sent: remove it from the transfer, then send it.');

    await user.click(within(unsent).getByRole('button', { name: 'Remove invoice.com' }));
    await waitFor(() => expect(within(section('Files')).queryByRole('rowheader', { name: 'invoice.com' })).not.toBeInTheDocument());
    expect(network.requestsTo('DELETE /api/v1/transfers/tr_1/files/fi_bad')).toHaveLength(1);
    expect(within(section('Not sent yet')).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(section('Not sent yet')).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByRole('textbox', { name: 'Transfer link' })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/finalize')).toHaveLength(2);
  });

  it('shows a scan verdict when it lands, without a reload, and stops asking once every file is judged', async () => {
    let stored: Transfer = transferFixture({ finalizedAt: null, files: [transferFile({ id: 'fi_bad', name: 'invoice.com', scanResult: null })] });
    const network = transferServer({ extra: { 'GET /api/v1/transfers/:id': () => json(stored) } });
    renderApp('/transfers/tr_1');
    const row = async () => (await within(await screen.findByRole('region', { name: 'Files' })).findByRole('rowheader', { name: 'invoice.com' })).closest('tr')!;
    expect(within(await row()).getAllByRole('cell')[3]).toHaveTextContent(/^Checking…$/);
    stored = { ...stored, files: [{ ...stored.files[0]!, scanResult: 'infected', scanSignature: 'Test.EICAR.HDB.UNOFFICIAL' }] };
    await waitFor(async () => expect(within(await row()).getAllByRole('cell')[3]).toHaveTextContent(/^Infected/), { timeout: 8000 });
    const asked = network.requestsTo('GET /api/v1/transfers/tr_1').length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(network.requestsTo('GET /api/v1/transfers/tr_1')).toHaveLength(asked);
  }, 20_000);

  it('points a draft whose uploads did not finish back to the uploader', async () => {
    transferServer({ transfer: transferFixture({ finalizedAt: null, files: [transferFile({ state: 'uploading' })] }) });
    renderApp('/transfers/tr_1');
    const unsent = await screen.findByRole('region', { name: 'Not sent yet' });
    expect(unsent).toHaveTextContent('1 of 1 file has not finished uploading');
    expect(within(unsent).getByRole('link', { name: 'Continue uploading' })).toHaveAttribute('href', '/transfers/new');
    expect(within(unsent).queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
  });

  it('switches this transfer\'s notifications on its page', async () => {
    const network = transferServer();
    const { user } = renderApp('/transfers/tr_1');
    const section = await screen.findByRole('region', { name: 'Notifications' });
    await user.click(within(section).getByLabelText('Email me when it is downloaded'));
    await waitFor(() => expect(within(section).getByLabelText('Email me when it is downloaded')).not.toBeChecked());
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[0]!.body).toEqual({ notifications: { downloads: false, beforeExpiry: true } });
  });

  it('shows each recipient as notified, downloaded or bounced', async () => {
    transferServer({
      downloads: transferDownloads({
        recipients: [
          recipient(),
          recipient({ id: 'rc_2', email: 'alan@example.com', downloaded: false }),
          recipient({ id: 'rc_3', email: 'typo@exmaple.com', notifiedAt: null, downloaded: false, bouncedAt: ago(hour), bounceKind: 'hard' }),
        ],
      }),
    });
    renderApp('/transfers/tr_1');

    const table = within(await screen.findByRole('region', { name: 'Recipients' })).getByRole('table');
    const row = (email: string) => within(within(table).getByRole('rowheader', { name: email }).closest('tr')!);
    expect(row('grace@example.com').getByText('Downloaded')).toBeInTheDocument();
    expect(row('grace@example.com').getByText('yesterday')).toBeInTheDocument();
    expect(row('alan@example.com').getByText('Not yet')).toBeInTheDocument();
    expect(row('typo@exmaple.com').getByText('Bounced (hard)')).toBeInTheDocument();
    expect(row('typo@exmaple.com').getAllByText('Not yet')).toHaveLength(2);
  });

  it('groups the receipts by visit and says when a download stopped partway', async () => {
    transferServer({
      downloads: transferDownloads({
        totalDownloads: 2,
        downloads: [
          download({ id: 'dl_1', sessionId: 'ses_a', fileName: 'report.pdf', createdAt: ago(3 * hour), completedAt: ago(3 * hour - 5000) }),
          download({ id: 'dl_2', sessionId: 'ses_a', fileName: 'q3.csv', createdAt: ago(3 * hour - 1000), completedAt: null }),
          download({ id: 'dl_3', sessionId: 'ses_b', fileName: null, recipientEmail: null, createdAt: ago(hour), completedAt: ago(hour - 9000) }),
        ],
      }),
    });
    renderApp('/transfers/tr_1');

    const timeline = within(await screen.findByRole('region', { name: 'Downloads' })).getByRole('list', { name: 'Visits, newest first' });
    const visits = within(timeline).getAllByRole('listitem').filter((item) => item.parentElement === timeline);
    expect(visits).toHaveLength(2);

    const [anonymous, grace] = visits.map((visit) => within(visit));
    expect(anonymous!.getByRole('heading', { level: 3, name: 'Someone with the link' })).toBeInTheDocument();
    expect(anonymous!.getByText('All files (zip)')).toBeInTheDocument();
    expect(anonymous!.getByText(/completed/)).toBeInTheDocument();

    expect(grace!.getByRole('heading', { level: 3, name: 'grace@example.com' })).toBeInTheDocument();
    expect(grace!.getByText('Started', { exact: false })).toHaveTextContent('Started 3 hours ago');
    expect(grace!.getByText('report.pdf').closest('li')).toHaveTextContent(/completed/);
    expect(grace!.getByText('q3.csv').closest('li')).toHaveTextContent('stopped partway');
  });

  it('changes the download limit with PATCH and shows the new limit', async () => {
    const network = transferServer();
    const { user } = renderApp('/transfers/tr_1');

    const limit = await screen.findByRole('spinbutton', { name: 'Maximum downloads' });
    expect(screen.getByText('3 / 10')).toBeInTheDocument();
    // What one download is, as the server counts it.
    expect(limit).toHaveAccessibleDescription(expect.stringContaining('One download is one visit to the link: it may take every file and the zip'));
    await user.clear(limit);
    await user.type(limit, '5');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));

    expect(await screen.findByText('Download limit saved.')).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[0]?.body).toEqual({ maxDownloads: 5 });
    expect(screen.getByText('3 / 5')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Unlimited' }));
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[1]?.body).toEqual({ maxDownloads: null }));
    expect(await screen.findByText('3')).toBeInTheDocument();
  });

  it('refuses a limit that is not a whole number without asking the server', async () => {
    const network = transferServer();
    const { user } = renderApp('/transfers/tr_1');

    const limit = await screen.findByRole('spinbutton', { name: 'Maximum downloads' });
    await user.clear(limit);
    await user.click(screen.getByRole('button', { name: 'Save limit' }));

    expect(limit).toHaveAccessibleDescription(expect.stringContaining('Enter a whole number from 1 to 1,000,000'));
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')).toHaveLength(0);
  });

  it('explains that the expiry is fixed on the free plan', async () => {
    transferServer({ plan: 'free' });
    renderApp('/transfers/tr_1');

    expect(await screen.findByText(/On the free plan a transfer expires 7 days after it is created/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Expires at')).not.toBeInTheDocument();
  });

  it("shows the API's message next to the expiry form when it refuses the change", async () => {
    const network = transferServer({
      plan: 'paid',
      extra: { 'PATCH /api/v1/transfers/:id': apiError(402, 'upgrade_required', 'Choosing when a transfer expires needs a paid plan') },
    });
    const { user } = renderApp('/transfers/tr_1');

    const expiry = await screen.findByLabelText('Expires at');
    await user.clear(expiry);
    await user.type(expiry, '2026-12-01T10:00');
    await user.click(screen.getByRole('button', { name: 'Save expiry' }));

    const form = screen.getByRole('form', { name: 'Expiry' });
    expect(await within(form).findByRole('alert')).toHaveTextContent('Choosing when a transfer expires needs a paid plan');
    expect(network.requestsTo('PATCH /api/v1/transfers/tr_1')[0]?.body).toEqual({ expiresAt: new Date('2026-12-01T10:00').toISOString() });
  });

  it('revokes the transfer after confirmation, then shows it as Revoked without its link', async () => {
    const network = transferServer();
    const { user } = renderApp('/transfers/tr_1');

    await user.click(await screen.findByRole('button', { name: 'Revoke transfer' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Revoke this transfer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/revoke')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke transfer' }));
    dialog = screen.getByRole('alertdialog', { name: 'Revoke this transfer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke transfer' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/revoke')).toHaveLength(1);
    expect(within(screen.getByLabelText('About this transfer')).getByText('Revoked')).toBeInTheDocument();
    // What no longer works is no longer offered: no countdown to an expiry, no download of deleted files.
    expect(screen.queryByText(/expires in/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Transfer link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'QR code for the transfer link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke transfer' })).not.toBeInTheDocument();
    expect(screen.getByText(/This transfer has ended/)).toBeInTheDocument();
  });

  it('fetches download links only when asked, then links each file and the zip with its size', async () => {
    const network = transferServer();
    const { user } = renderApp('/transfers/tr_1');

    const button = await screen.findByRole('button', { name: 'Download files' });
    expect(network.requestsTo('GET /api/v1/transfers/tr_1/download-links')).toHaveLength(0);
    await user.click(button);

    const files = await screen.findByRole('list', { name: 'Files to download' });
    const report = within(files).getByRole('link', { name: 'report.pdf' });
    expect(report).toHaveAttribute('href', 'http://localhost:8080/dl/f/fi_1?sig=a');
    expect(report).toHaveAttribute('download');
    expect(within(files).getByRole('link', { name: 'data/2026/q3.csv' })).toHaveAttribute('href', 'http://localhost:8080/dl/f/fi_2?sig=b');
    const zip = screen.getByRole('link', { name: 'All files as Quarterly report.zip' });
    expect(zip).toHaveAttribute('href', 'http://localhost:8080/dl/z/tr_1?sig=c');
    expect(zip.parentElement).toHaveTextContent('(2.5 MB)');
    expect(network.requestsTo('GET /api/v1/transfers/tr_1/download-links')).toHaveLength(1);
  });

  it('explains that an end-to-end encrypted transfer cannot be downloaded here', async () => {
    const network = transferServer({ transfer: transferFixture({ e2ee: true, title: null }) });
    renderApp('/transfers/tr_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'End-to-end encrypted transfer' })).toBeInTheDocument();
    expect(screen.getByText(/end-to-end encrypted: the server holds only ciphertext/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download files' })).not.toBeInTheDocument();
    expect(network.requestsTo('GET /api/v1/transfers/tr_1/download-links')).toHaveLength(0);
  });

  it('shows no link or QR code for a live encrypted transfer, says why, and keeps a label in this browser only', async () => {
    const network = transferServer({ transfer: transferFixture({ e2ee: true, title: null }) });
    const { user } = renderApp('/transfers/tr_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'End-to-end encrypted transfer' })).toBeInTheDocument();
    const link = section('Link');
    expect(within(link).getByText(/the key .* was shown once, in the browser that sent it/)).toBeInTheDocument();
    expect(within(link).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Copy/ })).not.toBeInTheDocument();

    const label = within(section('Your label')).getByLabelText('Label');
    expect(label).toHaveAccessibleDescription(expect.stringContaining('never sent to the service'));
    await user.type(label, 'Contracts for Ada');
    await user.click(within(section('Your label')).getByRole('button', { name: 'Save label' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Contracts for Ada' })).toBeInTheDocument();
    expect(window.localStorage.getItem('parcel.transfer-label.tr_1')).toBe('Contracts for Ada');
    expect(JSON.stringify(network.requests.map((request) => request.body ?? null))).not.toContain('Contracts for Ada');
    window.localStorage.clear();
  });

  it("shows the API's message when the download links cannot be had", async () => {
    transferServer({ extra: { 'GET /api/v1/transfers/:id/download-links': apiError(409, 'conflict', 'This transfer has expired') } });
    const { user } = renderApp('/transfers/tr_1');

    await user.click(await screen.findByRole('button', { name: 'Download files' }));
    expect(await within(section('Download files')).findByRole('alert')).toHaveTextContent('This transfer has expired');
  });
});

describe('a transfer that does not exist', () => {
  it('shows a not-found state, not an error with "Try again"', async () => {
    transferServer({
      extra: {
        'GET /api/v1/transfers/:id': apiError(404, 'not_found', 'Transfer not found'),
        'GET /api/v1/transfers/:id/downloads': apiError(404, 'not_found', 'Transfer not found'),
      },
    });
    renderApp('/transfers/tr_doesnotexist');

    expect(await screen.findByRole('heading', { level: 1, name: 'Transfer not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All transfers' })).toHaveAttribute('href', '/transfers');
  });
});

describe('a transfer whose download limit is reached', () => {
  it('says so in its header and facts, and keeps the link and the owner download', async () => {
    transferServer({ transfer: transferFixture({ downloadCount: 10, maxDownloads: 10 }) });
    renderApp('/transfers/tr_1');

    await screen.findByRole('heading', { level: 1, name: 'Quarterly report' });
    expect(screen.getAllByText('Limit reached')[0]).toBeInTheDocument();
    expect(screen.queryByText('Active')).not.toBeInTheDocument();
    expect(within(screen.getByLabelText('About this transfer')).getByText('limit reached')).toBeInTheDocument();
    expect(screen.getByText(/Raise the limit to open the link again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download files' })).toBeInTheDocument();
  });
});

describe('a transfer just sent from the dashboard', () => {
  it('says it is on its way, with the link, QR code and recipients, and offers to send another', async () => {
    transferServer();
    renderApp('/transfers/tr_1?sent=true');

    const notice = await screen.findByRole('region', { name: 'Your transfer is on its way' });
    expect(within(notice).getByText(/1 recipient was emailed a link/)).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Send another' })).toHaveAttribute('href', '/transfers/new');
    expect(within(notice).getByRole('textbox', { name: 'Link to share' })).toHaveValue(transferFixture().url);
    expect(screen.getByRole('textbox', { name: 'Transfer link' })).toHaveValue(transferFixture().url);
    expect(screen.getByRole('img', { name: 'QR code for the transfer link' })).toBeInTheDocument();
  });

  it('does not say so on a later visit', async () => {
    transferServer();
    renderApp('/transfers/tr_1');
    await screen.findByRole('heading', { level: 1, name: 'Quarterly report' });
    expect(screen.queryByRole('region', { name: 'Your transfer is on its way' })).not.toBeInTheDocument();
  });
});

describe('an unsent draft', () => {
  it('offers to discard it instead of revoking, and returns to the list once it is gone', async () => {
    const network = transferServer({
      transfer: transferFixture({ finalizedAt: null }),
      extra: { 'DELETE /api/v1/transfers/:id': json({ deleted: true }) },
    });
    const { user, router } = renderApp('/transfers/tr_1');

    await screen.findByRole('heading', { level: 1, name: 'Quarterly report' });
    expect(screen.queryByRole('button', { name: 'Revoke transfer' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Discard this draft?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard draft' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/transfers'));
    expect(network.requestsTo('DELETE /api/v1/transfers/tr_1')).toHaveLength(1);
  });
});
