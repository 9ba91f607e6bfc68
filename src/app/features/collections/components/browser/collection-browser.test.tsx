import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, type StubResponse } from '../../../../test/fetch-stub';
import { renderApp } from '../../../../test/render-app';
import { collectionFile, collectionServer, sampleTree } from '../../testing/browser-fixtures';

// happy-dom lays nothing out: the list's scroll area gets a size, so the virtualiser renders rows.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(960);
});

const list = () => screen.getByRole('listbox', { name: 'Contents of Spring lookbook' });
const option = (name: string) => within(list()).getByRole('option', { name });
const selectedNames = () =>
  within(list())
    .getAllByRole('option')
    .filter((o) => o.getAttribute('aria-selected') === 'true')
    .map((o) => o.getAttribute('aria-label'));

/** A response held back until the test lets it go, to look at the page in between. */
function held(): { handler: () => Promise<StubResponse>; release: (response: StubResponse) => void } {
  let release!: (response: StubResponse) => void;
  const answer = new Promise<StubResponse>((resolve) => {
    release = resolve;
  });
  return { handler: () => answer, release };
}

async function openCollection(path = '/collections/col_1') {
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' });
  return app;
}

describe('collection browser', () => {
  it('lists folders first, then files, each sorted, and opens a folder with Enter', async () => {
    collectionServer();
    const { user } = await openCollection();
    expect(
      within(list())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['Misc', 'Shoot', 'a.jpg', 'b.pdf', 'c.txt']);
    expect(option('Shoot')).toHaveAccessibleDescription('Folder · 1 file · 9 KB');
    expect(option('a.jpg')).toHaveAccessibleDescription(expect.stringContaining('3 KB · JPG image'));

    await user.selectOptions(screen.getByLabelText('Sort by'), 'size');
    await user.click(screen.getByRole('button', { name: 'Descending' }));
    expect(
      within(list())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['Shoot', 'Misc', 'a.jpg', 'c.txt', 'b.pdf']);

    list().focus();
    await user.keyboard('{Home}{Enter}');
    const inShoot = await screen.findByRole('listbox', { name: 'Contents of Shoot' });
    expect(
      within(inShoot)
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['Day 1']);
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getAllByRole('link');
    expect(crumbs.map((c) => c.textContent)).toEqual(['Collections', 'Spring lookbook', 'Shoot']);
    expect(crumbs[2]).toHaveAttribute('aria-current', 'page');
    expect(crumbs[0]).not.toHaveAttribute('aria-current');
    expect(crumbs[1]).not.toHaveAttribute('aria-current');
    expect(crumbs[0]).toHaveAttribute('href', '/collections');
  });

  it('previews a file in the lightbox with Enter or a double click, reading a text from its signed link', async () => {
    collectionServer({
      extra: {
        'GET /api/v1/collections/:id/download-links': json({
          zip: { url: 'http://localhost:8080/dl/zip', name: 'Spring lookbook.zip', sizeBytes: 6_000 },
          files: [
            { fileId: 'fi_a', name: 'a.jpg', url: 'http://localhost:8080/dl/a' },
            { fileId: 'fi_c', name: 'c.txt', url: 'http://localhost:8080/dl/c' },
          ],
          expiresAt: '2030-01-01T00:00:00.000Z',
        }),
        'GET /dl/c': () => ({ status: 206, body: 'hello <b>owner</b>', headers: { 'content-type': 'text/plain' } }),
      },
    });
    const { user } = await openCollection();
    await user.dblClick(option('c.txt'));
    const dialog = await screen.findByRole('dialog', { name: 'Preview of c.txt' });
    expect(await within(dialog).findByLabelText('Text of c.txt')).toHaveTextContent('hello <b>owner</b>');
    // The folder's previews: the image, the PDF and the text (a raw file has none).
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(await screen.findByRole('dialog', { name: 'Preview of a.jpg' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('selects by click, ctrl/cmd-click and shift-click', async () => {
    collectionServer();
    const { user } = await openCollection();

    await user.click(option('Misc'));
    expect(selectedNames()).toEqual(['Misc']);
    await user.click(option('b.pdf'));
    expect(selectedNames()).toEqual(['b.pdf']);

    await user.keyboard('{Control>}');
    await user.click(option('Misc'));
    await user.keyboard('{/Control}');
    expect(selectedNames()).toEqual(['Misc', 'b.pdf']);

    await user.click(option('Shoot'));
    await user.keyboard('{Shift>}');
    await user.click(option('b.pdf'));
    await user.keyboard('{/Shift}');
    expect(selectedNames()).toEqual(['Shoot', 'a.jpg', 'b.pdf']);
    expect(screen.getByText('3 selected')).toBeInTheDocument();
  });

  it('selects with the keyboard: arrows move, Space toggles, Shift+arrows extend, Ctrl+A selects all, Escape clears', async () => {
    collectionServer();
    const { user } = await openCollection();

    await user.tab();
    await user.tab();
    while (document.activeElement !== list()) await user.tab();
    expect(list()).toHaveAttribute('aria-activedescendant', option('Misc').id);

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(list()).toHaveAttribute('aria-activedescendant', option('a.jpg').id);
    expect(selectedNames()).toEqual([]);
    await user.keyboard(' ');
    expect(selectedNames()).toEqual(['a.jpg']);

    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(selectedNames()).toEqual(['a.jpg', 'b.pdf', 'c.txt']);
    await user.keyboard('{ArrowUp} ');
    expect(selectedNames()).toEqual(['a.jpg', 'c.txt']);

    await user.keyboard('{Control>}a{/Control}');
    expect(selectedNames()).toEqual(['Misc', 'Shoot', 'a.jpg', 'b.pdf', 'c.txt']);
    await user.keyboard('{Escape}');
    expect(selectedNames()).toEqual([]);
  });

  it('renames at once, and puts the old name back with the API’s message beside it when refused', async () => {
    const patch = held();
    const network = collectionServer({ extra: { 'PATCH /api/v1/collections/:id/folders/:folderId': patch.handler } });
    const { user } = await openCollection();

    await user.click(option('Misc'));
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename “Misc”' });
    const field = within(dialog).getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Shoot{Enter}');

    // Optimistic: the new name shows while the server is asked.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/collections/col_1/folders/fo_misc')).toHaveLength(1));
    expect(network.requestsTo('PATCH /api/v1/collections/col_1/folders/fo_misc')[0]!.body).toEqual({ name: 'Shoot' });
    expect(within(list()).getAllByRole('option', { name: 'Shoot' })).toHaveLength(2);

    patch.release(apiError(409, 'conflict', 'A folder named “Shoot” is already there.', { reason: 'name_taken' }));
    await waitFor(() => expect(option('Misc')).toHaveAccessibleDescription(expect.stringContaining('Not renamed: A folder named “Shoot” is already there.')));
    expect(within(list()).getAllByRole('option', { name: 'Shoot' })).toHaveLength(1);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('“Misc”: Not renamed: A folder named “Shoot” is already there.');
  });

  it('moves the selection with the folder picker, which keeps a folder out of its own subtree', async () => {
    const network = collectionServer();
    const { user } = await openCollection();

    await user.click(option('Shoot'));
    await user.keyboard('{Control>}');
    await user.click(option('c.txt'));
    await user.keyboard('{/Control}');
    await user.click(screen.getByRole('button', { name: 'Move' }));

    const dialog = screen.getByRole('dialog', { name: 'Move 2 items' });
    const picker = within(dialog).getByRole('listbox', { name: 'Destination folder' });
    expect(picker).toHaveFocus();
    const destinations = within(picker).getAllByRole('option');
    expect(destinations.map((d) => d.getAttribute('aria-label'))).toEqual([
      'Spring lookbook (already here)',
      'Misc',
      'Shoot (being moved)',
      'Day 1 (being moved)',
      'Raw (being moved)',
    ]);
    expect(within(picker).getByRole('option', { name: 'Raw (being moved)' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(picker).getByRole('option', { name: 'Misc' })).toHaveAttribute('aria-selected', 'true');

    // Enter on a folder that cannot take them does nothing.
    await user.keyboard('{End}{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Move here' })).toBeDisabled();
    await user.keyboard('{Home}{ArrowDown}{Enter}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      within(list())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['Misc', 'a.jpg', 'b.pdf']);
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/collections/col_1/files/fi_c')).toHaveLength(1));
    expect(network.requestsTo('PATCH /api/v1/collections/col_1/files/fi_c')[0]!.body).toEqual({ folderId: 'fo_misc' });
    expect(network.requestsTo('PATCH /api/v1/collections/col_1/folders/fo_shoot')[0]!.body).toEqual({ parentId: 'fo_misc' });
    expect(screen.getByText('Moved 2 items to “Misc”.')).toBeInTheDocument();
  });

  it('deletes the selection to the trash once confirmed, and brings back what the server refused with its message', async () => {
    const network = collectionServer({
      extra: { 'DELETE /api/v1/collections/:id/folders/:folderId': apiError(404, 'not_found', 'Folder not found.') },
    });
    const { user } = await openCollection();

    await user.click(option('Misc'));
    await user.keyboard('{Shift>}');
    await user.click(option('a.jpg'));
    await user.keyboard('{/Shift}');
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    const confirm = screen.getByRole('alertdialog', { name: 'Delete 3 items?' });
    expect(confirm).toHaveAccessibleDescription(/Folders go to the trash with everything inside them/);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(network.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(selectedNames()).toEqual(['Misc', 'Shoot', 'a.jpg']);

    list().focus();
    await user.keyboard('{Delete}');
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete 3 items?' })).getByRole('button', { name: 'Delete' }));
    // The file and folder deletions go out together; wait for both.
    await waitFor(() => {
      expect(network.requestsTo('DELETE /api/v1/collections/col_1/files')).toHaveLength(1);
      expect(network.requestsTo('DELETE /api/v1/collections/col_1/folders/fo_misc')).toHaveLength(1);
    });
    expect(network.requestsTo('DELETE /api/v1/collections/col_1/files')[0]!.body).toEqual({ fileIds: ['fi_a'] });
    await waitFor(() =>
      expect(
        within(list())
          .getAllByRole('option')
          .map((o) => o.getAttribute('aria-label')),
      ).toEqual(['Misc', 'Shoot', 'b.pdf', 'c.txt']),
    );
    expect(option('Misc')).toHaveAccessibleDescription(expect.stringContaining('Not deleted: Folder not found.'));
  });

  it('lists the trash, restores an item where it was, and deletes another forever only once confirmed', async () => {
    const trashed = (id: string, name: string, kind: 'file' | 'folder', path = name) => ({
      kind,
      id,
      name,
      path,
      mimeType: kind === 'file' ? 'image/jpeg' : null,
      fileCount: kind === 'file' ? 1 : 3,
      sizeBytes: 2048,
      trashedAt: new Date(Date.now() - 3_600_000).toISOString(),
      purgeAt: '2027-01-01T12:00:00.000Z',
    });
    let items = [trashed('fi_old', 'old.jpg', 'file', 'Shoot/old.jpg'), trashed('fo_rejects', 'Rejects', 'folder')];
    const network = collectionServer({
      extra: {
        'GET /api/v1/collections/:id/trash': () => json({ items }),
        'POST /api/v1/collections/:id/trash/:itemId/restore': ({ params }) => {
          items = items.filter((i) => i.id !== params.itemId);
          return json({ restored: { kind: 'file', id: params.itemId, folderId: 'fo_shoot' } });
        },
        'DELETE /api/v1/collections/:id/trash/:itemId': ({ params }) => {
          items = items.filter((i) => i.id !== params.itemId);
          return json({ deleted: true });
        },
      },
    });
    const { user } = await openCollection();
    expect(network.requestsTo('GET /api/v1/collections/col_1/trash')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Trash' }));
    const trash = await screen.findByRole('dialog', { name: 'Trash' });
    const listed = await within(trash).findByRole('list', { name: 'Deleted items' });
    expect(within(listed).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^old\.jpgFrom Shoot · 2 KB · Deleted .+ · Goes for good on /),
      expect.stringMatching(/^Rejects3 files · 2 KB · Deleted /),
    ]);

    await user.click(within(trash).getByRole('button', { name: 'Restore old.jpg' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/collections/col_1/trash/fi_old/restore')).toHaveLength(1));
    expect(await screen.findByText('“old.jpg” is back where it was.')).toBeInTheDocument();

    await user.click(await within(trash).findByRole('button', { name: 'Delete forever Rejects' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete “Rejects” forever?' });
    expect(confirm).toHaveAccessibleDescription(/The folder and its 3 files are deleted now, with their bytes\. This cannot be undone\./);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(network.requestsTo('DELETE /api/v1/collections/col_1/trash/fo_rejects')).toHaveLength(0);
    await user.click(within(trash).getByRole('button', { name: 'Delete forever Rejects' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete “Rejects” forever?' })).getByRole('button', { name: 'Delete forever' }));
    await waitFor(() => expect(network.requestsTo('DELETE /api/v1/collections/col_1/trash/fo_rejects')).toHaveLength(1));
    expect(await within(trash).findByText('The trash is empty.')).toBeInTheDocument();
  });

  it('sets an image as the cover', async () => {
    const network = collectionServer({
      extra: { 'PATCH /api/v1/collections/:id': ({ body }) => json({ collection: { ...collectionOf(body), coverFileId: 'fi_a' } }) },
    });
    const { user } = await openCollection();
    await user.click(option('b.pdf'));
    expect(screen.getByRole('button', { name: 'Set as cover' })).toBeDisabled();
    await user.click(option('a.jpg'));
    await user.click(screen.getByRole('button', { name: 'Set as cover' }));
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/collections/col_1')[0]?.body).toEqual({ coverFileId: 'fi_a' }));
    await waitFor(() => expect(option('a.jpg')).toHaveAccessibleDescription(expect.stringContaining('cover')));
  });

  it('imports a file from a URL into the folder being viewed, shows its progress, and lists it once it is in', async () => {
    const tree = sampleTree();
    let files = tree.files;
    let status = { fileId: 'fi_url', name: 'lookbook.pdf', size: 3_000_000, receivedBytes: 0, source: 'https://downloads.example.com/lookbook.pdf', status: 'importing', error: null };
    const network = collectionServer({
      tree,
      extra: {
        'GET /api/v1/collections/:id/files': () => json({ files, nextCursor: null }),
        'POST /api/v1/collections/:id/files': () => {
          files = [...files, collectionFile({ id: 'fi_url', name: 'lookbook.pdf', folderId: 'fo_shoot', sizeBytes: 0, crc32: null, state: 'importing' })];
          return json({ tusEndpoint: 'http://localhost:8080/files/', files: [], imports: [{ fileId: 'fi_url', name: 'lookbook.pdf', size: null, source: status.source, status: 'importing' }] }, 201);
        },
        'GET /api/v1/imports/:fileId': () => json(status),
      },
    });
    const { user } = await openCollection('/collections/col_1?folder=fo_shoot');
    await screen.findByRole('listbox', { name: 'Contents of Shoot' });

    await user.click(screen.getByRole('button', { name: 'Add from URL' }));
    const dialog = screen.getByRole('dialog', { name: 'Add from URL' });
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining('Into “Shoot”.'));
    await user.type(within(dialog).getByLabelText('File URL'), 'https://downloads.example.com/lookbook.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.requestsTo('POST /api/v1/collections/col_1/files')[0]!.body).toEqual({ imports: [{ url: 'https://downloads.example.com/lookbook.pdf' }], folderId: 'fo_shoot' });
    const imports = await screen.findByRole('region', { name: 'Imports' });
    expect(await within(imports).findByRole('progressbar', { name: 'Importing lookbook.pdf' })).toBeInTheDocument();
    expect(within(imports).getByText('Into Shoot')).toBeInTheDocument();
    const row = within(screen.getByRole('listbox', { name: 'Contents of Shoot' })).getByRole('option', { name: 'lookbook.pdf' });
    expect(row).toHaveAccessibleDescription(expect.stringContaining('Importing from a URL'));
    expect(screen.getByText('lookbook.pdf is being imported into “Shoot”.')).toBeInTheDocument();

    // It lands: the listing is read again, and the file is an ordinary one.
    status = { ...status, status: 'ready', receivedBytes: 3_000_000 };
    files = files.map((f) => (f.id === 'fi_url' ? { ...f, state: 'complete', sizeBytes: 3_000_000, crc32: '0a1b2c3d' } : f));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Imports' })).not.toBeInTheDocument(), { timeout: 4000 });
    const landed = within(screen.getByRole('listbox', { name: 'Contents of Shoot' })).getByRole('option', { name: 'lookbook.pdf' });
    expect(landed).toHaveAccessibleDescription(expect.stringContaining('3 MB'));
    expect(landed).not.toHaveAccessibleDescription(expect.stringMatching(/importing/i));
  });

  it('lists a failed import with its reason, in the listing too, and removes it', async () => {
    const tree = sampleTree();
    const reason = 'The server answered 404 Not Found.';
    tree.files.push(collectionFile({ id: 'fi_bad', name: 'broken.bin', sizeBytes: 0, crc32: null, state: 'failed', error: reason }));
    const network = collectionServer({
      tree,
      extra: {
        'GET /api/v1/imports/:fileId': json({ fileId: 'fi_bad', name: 'broken.bin', size: 0, receivedBytes: 0, source: 'https://downloads.example.com/broken.bin', status: 'failed', error: reason }),
      },
    });
    const { user } = await openCollection();
    const imports = screen.getByRole('region', { name: 'Imports' });
    const remove = within(imports).getByRole('button', { name: 'Remove broken.bin' });
    expect(remove).toHaveAccessibleDescription(reason);
    expect(option('broken.bin')).toHaveAccessibleDescription(expect.stringContaining(`Import failed: ${reason}`));
    expect(await within(imports).findByText('From https://downloads.example.com/broken.bin')).toBeInTheDocument();

    await user.click(remove);
    await waitFor(() => expect(network.requestsTo('DELETE /api/v1/collections/col_1/files')[0]?.body).toEqual({ fileIds: ['fi_bad'] }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Imports' })).not.toBeInTheDocument());
    expect(within(list()).queryByRole('option', { name: 'broken.bin' })).not.toBeInTheDocument();
  });

  it('shows a free workspace what collections are instead of an error', async () => {
    collectionServer({ plan: 'free' });
    renderApp('/collections/col_1');
    expect(await screen.findByRole('heading', { name: 'Collections come with the paid plan' })).toBeInTheDocument();
  });
});

function collectionOf(body: unknown) {
  return { id: 'col_1', title: 'Spring lookbook', ...(body as object) };
}
