import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../../../contract/transfers';
import { json, stubFetch } from '../../../test/fetch-stub';
import { account, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { downloadLinks, transfer as transferFixture, transferDownloads, transferFile } from '../testing/fixtures';

const reason = 'The server answered 404 Not Found.';

/** A sent transfer with one uploaded file, one import still running and one that failed. */
function withImports(): Transfer {
  return transferFixture({
    recipients: ['grace@example.com'],
    files: [
      transferFile(),
      transferFile({ id: 'fi_run', name: 'footage.mov', sizeBytes: 100_000_000, mimeType: 'video/quicktime', scanResult: null, crc32: null, state: 'importing' }),
      transferFile({ id: 'fi_bad', name: 'broken.bin', sizeBytes: 0, mimeType: 'application/octet-stream', scanResult: null, crc32: null, state: 'failed', error: reason }),
    ],
  });
}

function server(initial: Transfer) {
  let stored = initial;
  let status = { fileId: 'fi_run', name: 'footage.mov', size: 100_000_000, receivedBytes: 33_554_432, source: 'https://downloads.example.com/footage.mov', status: 'importing', error: null };
  const network = stubFetch({
    ...signedIn('free'),
    'GET /api/v1/me': json(account()),
    'GET /api/v1/transfers/:id': () => json(stored),
    'GET /api/v1/transfers/:id/downloads': json(transferDownloads()),
    'GET /api/v1/transfers/:id/download-links': json(downloadLinks()),
    'GET /api/v1/imports/:fileId': () => json(status),
  });
  return {
    network,
    land() {
      status = { ...status, status: 'ready', receivedBytes: status.size };
      stored = { ...stored, files: stored.files.map((f) => (f.id === 'fi_run' ? { ...f, state: 'complete', crc32: '0a1b2c3d' } : f)) };
    },
  };
}

const fileRow = (name: string) => {
  const table = screen.getByRole('group', { name: 'Files (scrolls sideways)' });
  return within(table).getByRole('row', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
};

describe('transfer files table', () => {
  it('lists a failed import with why it failed, and a running one with how far it is', async () => {
    server(withImports());
    renderApp('/transfers/tr_1');
    await screen.findByRole('heading', { level: 1 });

    const failed = fileRow('broken.bin');
    expect(within(failed).getAllByRole('cell').at(-1)).toHaveTextContent(`Failed${reason}`);

    const running = fileRow('footage.mov');
    const bar = await within(running).findByRole('progressbar', { name: 'Importing footage.mov' });
    expect(bar).toHaveAttribute('aria-valuenow', '33');
    expect(within(running).getAllByRole('cell').at(-1)).toHaveTextContent('Importing34 MB of 100 MB');
    expect(within(fileRow('report.pdf')).getAllByRole('cell').at(-1)).toHaveTextContent('Complete');

    const files = screen.getByRole('region', { name: 'Files' });
    expect(files).toHaveTextContent('1 file is still being imported from a URL. Once the transfer is sent, its recipients are emailed when the last import finishes.');
  });

  it('reads the transfer again when the running import lands', async () => {
    const { network, land } = server(withImports());
    renderApp('/transfers/tr_1');
    await within(await screen.findByRole('group', { name: 'Files (scrolls sideways)' })).findByRole('progressbar');
    const readsBefore = network.requestsTo('GET /api/v1/transfers/tr_1').length;

    land();
    await waitFor(() => expect(within(fileRow('footage.mov')).getAllByRole('cell').at(-1)).toHaveTextContent('Complete'), { timeout: 4000 });
    expect(network.requestsTo('GET /api/v1/transfers/tr_1').length).toBeGreaterThan(readsBefore);
    expect(screen.getByRole('region', { name: 'Files' })).toHaveTextContent('1 file could not be imported from a URL: the State column says why.');
  });

  it('shows an import’s error from the server as text, never as markup', async () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const transfer = withImports();
    server({ ...transfer, files: transfer.files.map((f) => (f.id === 'fi_bad' ? { ...f, error: hostile, name: hostile } : f)) });
    renderApp('/transfers/tr_1');
    const table = await screen.findByRole('group', { name: 'Files (scrolls sideways)' });
    expect(within(table).getAllByText(hostile)).toHaveLength(2);
    expect(table.querySelector('img')).toBeNull();
  });

  it('shows what the virus scan said: clean, checking, or infected with what it found; and says when scanning is off', async () => {
    const scanned = transferFixture({
      status: 'infected',
      files: [
        transferFile(),
        transferFile({ id: 'fi_new', name: 'new.txt', scanResult: null }),
        transferFile({ id: 'fi_bad', name: 'invoice.com', scanResult: 'infected', scanSignature: 'Win.Test.EICAR_HDB-1' }),
      ],
    });
    server(scanned);
    const { unmount } = renderApp('/transfers/tr_1');
    await screen.findByRole('heading', { level: 1 });
    const scanCell = (name: string) => within(fileRow(name)).getAllByRole('cell')[3];
    expect(scanCell('report.pdf')).toHaveTextContent(/^Clean$/);
    expect(scanCell('new.txt')).toHaveTextContent(/^Checking…$/);
    expect(scanCell('invoice.com')).toHaveTextContent(/^InfectedWin\.Test\.EICAR_HDB-1$/);
    unmount();

    stubFetch({
      ...signedIn('free'),
      'GET /api/v1/me': json(account({ scanning: { enabled: false } })),
      'GET /api/v1/transfers/:id': json(transferFixture({ files: [transferFile({ scanResult: null })] })),
      'GET /api/v1/transfers/:id/downloads': json(transferDownloads()),
      'GET /api/v1/transfers/:id/download-links': json(downloadLinks()),
    });
    renderApp('/transfers/tr_1');
    await screen.findByRole('heading', { level: 1 });
    expect(scanCell('report.pdf')).toHaveTextContent('Not scanned (scanning is off)');
  });

  describe('previews', () => {
    const previewed = () =>
      transferFixture({
        files: [
          transferFile({ id: 'fi_1', name: 'photo.jpg', mimeType: 'image/jpeg', thumbnailUrl: 'http://localhost:8080/thumb/p' }),
          transferFile({ id: 'fi_2', name: 'notes.txt', mimeType: 'text/plain', thumbnailUrl: null }),
          transferFile({ id: 'fi_3', name: 'data.bin', mimeType: 'application/octet-stream', thumbnailUrl: null }),
        ],
      });
    const links = downloadLinks({
      files: [
        { fileId: 'fi_1', name: 'photo.jpg', path: null, sizeBytes: 10, crc32: null, url: 'http://localhost:8080/dl/f/fi_1' },
        { fileId: 'fi_2', name: 'notes.txt', path: null, sizeBytes: 10, crc32: null, url: 'http://localhost:8080/dl/f/fi_2' },
      ],
    });

    it('open from a file’s thumbnail: the image, then a text read from the owner’s own link, as text', async () => {
      const network = stubFetch({
        ...signedIn('free'),
        'GET /api/v1/me': json(account()),
        'GET /api/v1/transfers/:id': json(previewed()),
        'GET /api/v1/transfers/:id/downloads': json(transferDownloads()),
        'GET /api/v1/transfers/:id/download-links': json(links),
        'GET /dl/f/fi_2': () => ({ status: 206, body: 'hello <b>owner</b>', headers: { 'content-type': 'text/plain' } }),
      });
      const { user } = renderApp('/transfers/tr_1');
      await screen.findByRole('heading', { level: 1 });
      expect(network.requestsTo('GET /api/v1/transfers/tr_1')[0]!.url.search).toBe('?thumbnails=true');
      expect(within(fileRow('photo.jpg')).getByRole('rowheader').querySelector('img')).toHaveAttribute('src', 'http://localhost:8080/thumb/p');
      expect(screen.queryByRole('button', { name: 'Preview data.bin' })).not.toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Preview photo.jpg' }));
      const dialog = await screen.findByRole('dialog', { name: 'Preview of photo.jpg' });
      expect(within(dialog).getByText('1 of 2')).toBeInTheDocument();
      expect(within(dialog).getByRole('img', { name: 'photo.jpg' })).toHaveAttribute('src', 'http://localhost:8080/thumb/p');
      await user.keyboard('{ArrowRight}');
      const text = await screen.findByRole('dialog', { name: 'Preview of notes.txt' });
      expect(await within(text).findByLabelText('Text of notes.txt')).toHaveTextContent('hello <b>owner</b>');
      expect(text.querySelector('b')).toBeNull();
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('show a member a teammate’s transfer by its thumbnails alone, never asking for links they may not have', async () => {
      const teammates = { ...previewed(), sentBy: { kind: 'member' as const, id: 'usr_2', name: 'Grace', email: 'grace@example.com' } };
      const network = stubFetch({
        ...signedIn('free'),
        'GET /api/v1/me': json(account({ role: 'member' })),
        'GET /api/v1/transfers/:id': json(teammates),
        'GET /api/v1/transfers/:id/downloads': json(transferDownloads()),
        'GET /api/v1/transfers/:id/download-links': json(links),
      });
      const { user } = renderApp('/transfers/tr_1');
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByRole('button', { name: 'Preview notes.txt' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Preview photo.jpg' }));
      const dialog = await screen.findByRole('dialog', { name: 'Preview of photo.jpg' });
      expect(within(dialog).getByText('1 of 1')).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
      expect(network.requestsTo('GET /api/v1/transfers/tr_1/download-links')).toHaveLength(0);
    });
  });
});
