import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type StubHandler, type StubRequest } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { TransferSummary } from '../../../../contract/transfers';
import { transferSummary } from '../testing/fixtures';

const day = 86_400_000;

const firstPage = [
  transferSummary(),
  transferSummary({
    id: 'tr_2',
    title: null,
    firstFileName: 'encrypted',
    fileCount: 1,
    sizeBytes: 800,
    e2ee: true,
    recipients: [],
    finalizedAt: null,
    downloadCount: 0,
    maxDownloads: null,
  }),
  transferSummary({
    id: 'tr_3',
    title: 'Old drafts',
    status: 'expired',
    downloadCount: 7,
    maxDownloads: null,
    expiresAt: new Date(Date.now() - 2 * day - 60_000).toISOString(),
  }),
  transferSummary({ id: 'tr_5', title: 'Pulled back', status: 'removed', expiresAt: new Date(Date.now() + 5 * day).toISOString() }),
];
const secondPage = [transferSummary({ id: 'tr_4', title: 'Site photos', recipients: ['a@example.com', 'b@example.com', 'c@example.com'] })];

/** The list endpoint with two pages, filtered by `status=draft` / `status=sent` as the API does; every request is kept for the assertions. */
function listServer(pages = { first: firstPage, second: secondPage }, extra: Record<string, StubHandler> = {}) {
  const kept = (list: TransferSummary[], status: string | null) =>
    list.filter((t) => (status === 'draft' ? t.sendRequestedAt === null : status === 'sent' ? t.sendRequestedAt !== null : true));
  return stubFetch({
    ...signedIn(),
    'GET /api/v1/transfers': ({ url }: StubRequest) => {
      const status = url.searchParams.get('status');
      return url.searchParams.get('cursor') === 'cur_2'
        ? json({ transfers: kept(pages.second, status), nextCursor: null })
        : json({ transfers: kept(pages.first, status), nextCursor: pages.second.length && status !== 'draft' ? 'cur_2' : null });
    },
    ...extra,
  });
}

function rowOf(name: string) {
  return screen.getByRole('link', { name }).closest('li')!;
}

describe('transfers list', () => {
  it('shows each transfer with its size, files, downloads, relative expiry and markers', async () => {
    listServer();
    renderApp('/transfers');

    await screen.findByRole('link', { name: 'Quarterly report' });
    const report = rowOf('Quarterly report');
    expect(within(report).getByText('2.5 MB · 2 files')).toBeInTheDocument();
    expect(within(report).getByText('report.pdf')).toBeInTheDocument();
    expect(within(report).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(report).getByText('3 / 10')).toBeInTheDocument();
    expect(within(report).getByText('expires in 5 days')).toBeInTheDocument();
    expect(within(report).getByText('Active')).toBeInTheDocument();
    expect(within(report).queryByText('Draft')).not.toBeInTheDocument();
    expect(within(report).queryByText('End-to-end encrypted')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Quarterly report' })).toHaveAttribute('href', '/transfers/tr_1');

    // No title: named after its first file.
    const holiday = rowOf('End-to-end encrypted transfer');
    expect(within(holiday).getByText('Draft')).toBeInTheDocument();
    expect(within(holiday).getByText('End-to-end encrypted')).toBeInTheDocument();
    expect(within(holiday).getByText('800 bytes · 1 file')).toBeInTheDocument();
    expect(within(holiday).getByText('Link only')).toBeInTheDocument();
    expect(within(holiday).getByText('0')).toBeInTheDocument();

    const old = rowOf('Old drafts');
    expect(within(old).getByText('Expired')).toBeInTheDocument();
    expect(within(old).getByText('expired 2 days ago')).toBeInTheDocument();
    expect(within(old).getByText('7')).toBeInTheDocument();

    // A revoked link ended when it was revoked: no planned expiry is shown.
    const revoked = rowOf('Pulled back');
    expect(within(revoked).getByText('revoked')).toBeInTheDocument();
    expect(within(revoked).queryByText(/expires in/)).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'New transfer' })).toHaveAttribute('href', '/transfers/new');
  });

  it('loads the next page with the cursor when Load more is pressed', async () => {
    const network = listServer();
    const { user } = renderApp('/transfers');

    await user.click(await screen.findByRole('button', { name: 'Load more' }));

    const photos = await screen.findByRole('link', { name: 'Site photos' });
    expect(within(photos.closest('li')!).getByText('a@example.com and 2 others')).toBeInTheDocument();
    const requests = network.requestsTo('GET /api/v1/transfers').filter((r) => r.url.searchParams.get('status') === 'sent');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.url.searchParams.has('cursor')).toBe(false);
    expect(requests[1]?.url.searchParams.get('cursor')).toBe('cur_2');
    expect(screen.getAllByRole('link', { name: /Quarterly report|End-to-end encrypted transfer|Old drafts|Site photos/ })).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('That’s all your transfers.')).toBeInTheDocument();
  });

  it('asks the API again when the status filter changes or a search is typed, and keeps both in the URL', async () => {
    const network = listServer();
    const { user, router } = renderApp('/transfers');

    await user.selectOptions(await screen.findByRole('combobox', { name: 'Status' }), 'Revoked');
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').at(-1)?.url.searchParams.get('status')).toBe('removed'));
    expect(router.state.location.search).toEqual({ status: 'removed' });

    await user.type(screen.getByRole('searchbox', { name: 'Search titles and file names' }), 'report');
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').at(-1)?.url.searchParams.get('q')).toBe('report'));
    const last = network.requestsTo('GET /api/v1/transfers').at(-1)!;
    expect(last.url.searchParams.get('status')).toBe('removed');
    // Debounced: not one request per keystroke.
    expect(network.requestsTo('GET /api/v1/transfers').filter((r) => r.url.searchParams.has('q')).length).toBe(1);
    expect(router.state.location.href).toBe('/transfers?status=removed&q=report');
  });

  it('says who sent each transfer, and lists one’s own alone with Sent by: Me, kept in the URL', async () => {
    const network = listServer({
      first: [
        transferSummary(),
        transferSummary({ id: 'tr_6', title: 'From Grace', sentBy: { kind: 'member', id: 'usr_9', name: 'Grace Hopper', email: 'grace@example.com' } }),
        transferSummary({ id: 'tr_7', title: 'Nightly', sentBy: { kind: 'key', id: 'key_1', name: 'CI uploads', email: null } }),
      ],
      second: [],
    });
    const { user, router } = renderApp('/transfers');

    expect(await within(await waitFor(() => rowOf('Quarterly report'))).findByText('by you')).toBeInTheDocument();
    expect(within(rowOf('From Grace')).getByText('by Grace Hopper')).toBeInTheDocument();
    expect(within(rowOf('Nightly')).getByText('by API key “CI uploads”')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sent by' }), 'Me');
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').at(-1)?.url.searchParams.get('sentBy')).toBe('me'));
    expect(router.state.location.search).toEqual({ sentBy: 'me' });
  });

  it('reads the filters from the URL', async () => {
    const network = listServer();
    renderApp('/transfers?status=draft&q=2026');

    expect(await screen.findByRole('combobox', { name: 'Status' })).toHaveValue('draft');
    expect(screen.getByRole('searchbox', { name: 'Search titles and file names' })).toHaveValue('2026');
    expect(network.requestsTo('GET /api/v1/transfers')[0]?.url.searchParams.get('status')).toBe('draft');
    expect(network.requestsTo('GET /api/v1/transfers')[0]?.url.searchParams.get('q')).toBe('2026');
  });

  it('shows every transfer when the URL names a status it does not know', async () => {
    const network = listServer();
    renderApp('/transfers?status=bogus');

    expect(await screen.findByRole('combobox', { name: 'Status' })).toHaveValue('');
    const asked = network.requestsTo('GET /api/v1/transfers').map((r) => r.url.searchParams.get('status'));
    expect(asked.sort()).toEqual(['draft', 'sent']);
  });

  it('invites the user to send a first transfer when there are none', async () => {
    listServer({ first: [], second: [] });
    renderApp('/transfers');

    expect(await screen.findByRole('heading', { name: 'Nothing sent yet' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Not sent yet' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send your first transfer' })).toHaveAttribute('href', '/transfers/new');
  });

  it("keeps the page and shows the API's message in place of the list when the list cannot be loaded", async () => {
    let fail = true;
    stubFetch({
      ...signedIn(),
      'GET /api/v1/transfers': ({ url }: StubRequest) =>
        fail
          ? apiError(503, 'unavailable', 'The database is restarting')
          : json({ transfers: firstPage.filter((t) => (url.searchParams.get('status') === 'draft') === (t.sendRequestedAt === null)), nextCursor: null }),
    });
    const { user } = renderApp('/transfers');

    expect(await screen.findByText('The database is restarting')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Transfers' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New transfer' })).toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Quarterly report' })).toBeInTheDocument();
  });
});

describe('end-to-end encrypted transfers in the list', () => {
  it('offers no Copy link (the key is not the service’s to give), says why, and shows the sender’s own labels', async () => {
    const sealed = (id: string) => transferSummary({ id, title: null, e2ee: true, firstFileName: 'encrypted', recipients: [] });
    listServer({ first: [sealed('tr_7'), sealed('tr_8'), transferSummary()], second: [] });
    window.localStorage.setItem('parcel.transfer-label.tr_7', 'Contracts for Ada');
    renderApp('/transfers');

    const labelled = rowOf(await screen.findByRole('link', { name: 'Contracts for Ada' }).then((link) => link.textContent!));
    expect(within(labelled).queryByRole('button', { name: /Copy link/ })).not.toBeInTheDocument();
    expect(within(labelled).getByText('No link to copy: its key was shown once, in the browser that sent it.')).toBeInTheDocument();
    const unlabelled = rowOf('End-to-end encrypted transfer');
    expect(within(unlabelled).queryByRole('button', { name: /Copy link/ })).not.toBeInTheDocument();
    // A transfer the service can open keeps its Copy link.
    expect(within(rowOf('Quarterly report')).getByRole('button', { name: 'Copy link to Quarterly report' })).toBeInTheDocument();
    window.localStorage.clear();
  });
});

describe('a transfer whose download limit is reached', () => {
  it('reads "Limit reached", as its recipients are told, not "Active"', async () => {
    listServer({ first: [transferSummary({ id: 'tr_9', title: 'Once only', downloadCount: 1, maxDownloads: 1 })], second: [] });
    renderApp('/transfers');

    await screen.findByRole('link', { name: 'Once only' });
    const row = rowOf('Once only');
    expect(within(row).getByText('Limit reached')).toBeInTheDocument();
    expect(within(row).queryByText('Active')).not.toBeInTheDocument();
  });
});

describe('drafts, order and row actions', () => {
  it('lists unsent drafts apart, above what was sent', async () => {
    listServer();
    renderApp('/transfers');
    const drafts = await screen.findByRole('region', { name: 'Not sent yet' });
    expect(within(drafts).getByRole('link', { name: 'End-to-end encrypted transfer' })).toBeInTheDocument();
    // A draft's link expiry does not apply yet: it is deleted a day after it was started unless sent.
    expect(within(rowOf('End-to-end encrypted transfer')).getByText(/^deleted .* unless sent$/)).toBeInTheDocument();
    const sent = screen.getByRole('region', { name: 'Sent' });
    expect(within(sent).queryByRole('link', { name: 'End-to-end encrypted transfer' })).not.toBeInTheDocument();
    expect(within(sent).getByRole('link', { name: 'Quarterly report' })).toBeInTheDocument();
    // Drafts can be discarded from the list; sent ones copied and revoked.
    expect(within(drafts).getByRole('button', { name: 'Discard End-to-end encrypted transfer' })).toBeInTheDocument();
    expect(within(sent).getByRole('button', { name: 'Copy link to Quarterly report' })).toBeInTheDocument();
    expect(within(sent).getByRole('button', { name: 'Revoke Quarterly report' })).toBeInTheDocument();
    // An ended transfer offers neither.
    expect(within(rowOf('Old drafts')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf('Pulled back')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('lists a transfer sent while its URL imports run as sent, "Files arriving", with no link to copy yet', async () => {
    const arriving = transferSummary({ id: 'tr_8', title: 'Raw footage', finalizedAt: null, sendRequestedAt: new Date().toISOString(), downloadCount: 0 });
    listServer({ first: [arriving], second: [] });
    renderApp('/transfers');

    const sent = await screen.findByRole('region', { name: 'Sent' });
    const row = within(sent).getByRole('link', { name: 'Raw footage' }).closest('li')!;
    expect(within(row).getByText('Files arriving')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /copy link/i })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /discard/i })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Revoke Raw footage' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Not sent yet' })).not.toBeInTheDocument();
  });

  it('revokes from the list after a confirmation, and reads the list again', async () => {
    const revoked: string[] = [];
    const network = listServer(undefined, {
      'POST /api/v1/transfers/:id/revoke': ({ params }) => {
        revoked.push(params.id!);
        return json(transferSummary({ id: params.id!, status: 'removed' }));
      },
    });
    const { user } = renderApp('/transfers');
    await user.click(await screen.findByRole('button', { name: 'Revoke Quarterly report' }));
    const listReads = network.requestsTo('GET /api/v1/transfers').length;
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke “Quarterly report”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(revoked).toEqual(['tr_1']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').length).toBeGreaterThan(listReads));
  });

  it('sorts by size or expiry, keeping the order in the URL', async () => {
    const network = listServer();
    const { user, router } = renderApp('/transfers');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Sort' }), 'Largest first');
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').at(-1)?.url.searchParams.get('sort')).toBe('size'));
    expect(router.state.location.search).toEqual({ sort: 'size' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Expiring soonest');
    await waitFor(() => expect(network.requestsTo('GET /api/v1/transfers').at(-1)?.url.searchParams.get('sort')).toBe('expiry'));
  });
});
