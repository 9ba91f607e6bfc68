import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../../../contract/collections';
import type { PublicCollection, PublicCollectionFile } from '../../../../contract/public-collections';
import { apiError, json, noContent, stubFetch, type StubHandler, type StubRequest, type StubResponse } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';

const hour = 3_600_000;

const folder = (id: string, name: string, parentId: string | null, path: string): Folder => ({ id, name, parentId, path, depth: path.split('/').length - 1 });

function collection(overrides: Partial<PublicCollection> = {}): PublicCollection {
  return {
    title: 'Spring lookbook',
    description: 'Final selects.\n<b>Enjoy</b> <script>alert(1)</script>',
    workspaceName: 'Analytical Engines',
    visibility: 'public',
    cover: { fileId: 'fi_cover', thumbnailUrl: 'http://localhost:8080/thumb/cover' },
    folders: [folder('fo_day1', 'Day 1', null, 'Day 1'), folder('fo_raw', 'Raw', 'fo_day1', 'Day 1/Raw'), folder('fo_day10', 'Day 10', null, 'Day 10')],
    fileCount: 5,
    totalBytes: 7_400_000,
    zip: { name: 'Spring lookbook.zip', sizeBytes: 7_401_000 },
    access: 'public',
    guestEmail: null,
    upload: null,
    ...overrides,
  };
}

function file(id: string, name: string, folderId: string | null, mimeType: string, thumbnail: boolean, sizeBytes = 1_200_000): PublicCollectionFile {
  return {
    id,
    name,
    sizeBytes,
    mimeType,
    folderId,
    hasThumbnail: thumbnail,
    crc32: '0a1b2c3d',
    state: 'complete',
    error: null,
    scanResult: 'clean',
    createdAt: '2026-03-01T10:00:00.000Z',
    thumbnailUrl: thumbnail ? `http://localhost:8080/thumb/${id}` : null,
    scanPending: false,
    contributedBy: null,
    review: null,
    commentCount: 0,
  };
}

const filesByFolder: Record<string, PublicCollectionFile[]> = {
  root: [file('fi_cover', 'cover.jpg', null, 'image/jpeg', true), file('fi_brief', 'brief.pdf', null, 'application/pdf', false, 52_000)],
  fo_day1: [
    file('fi_portrait', 'portrait.jpg', 'fo_day1', 'image/jpeg', true),
    file('fi_wide', 'wide <1>.png', 'fo_day1', 'image/png', true),
    file('fi_notes', 'notes.txt', 'fo_day1', 'text/plain', false, 900),
  ],
  fo_raw: [],
  fo_day10: [],
};

/** The files of a folder (`folderId`), as the API pages them. */
const filesOf = (request: StubRequest): StubResponse =>
  json({ files: filesByFolder[request.url.searchParams.get('folderId') ?? 'root'] ?? [], nextCursor: null });

/** Signed links as the API makes them: every file under the folder asked for (or all), and their zip. */
const linksOf =
  (version = 'v1') =>
  (request: StubRequest): StubResponse => {
    const folderId = request.url.searchParams.get('folderId');
    const inside = folderId
      ? Object.entries(filesByFolder).filter(([id]) => id === folderId || (folderId === 'fo_day1' && id === 'fo_raw'))
      : Object.entries(filesByFolder);
    return json({
      expiresAt: new Date(Date.now() + hour).toISOString(),
      files: inside.flatMap(([, files]) =>
        files.map((f) => ({
          fileId: f.id,
          name: f.name,
          path: null,
          sizeBytes: f.sizeBytes,
          crc32: f.crc32,
          url: `http://localhost:8080/dl/${version}-${f.id}`,
        })),
      ),
      zip: { name: 'x.zip', sizeBytes: 1, url: `http://localhost:8080/dl/${version}-zip-${folderId ?? 'all'}` },
    });
  };

/** The fetch stub, plus what each call asked of `credentials` (the stub itself does not record it). */
function collectionServer(routes: Record<string, StubHandler>) {
  const network = stubFetch({ 'HEAD /dl/:token': { status: 200 }, ...routes });
  const stubbed = globalThis.fetch;
  const credentials: (RequestCredentials | undefined)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      credentials.push(init?.credentials);
      return stubbed(input, init);
    }),
  );
  return { ...network, credentials };
}

/** The URLs the page handed to the browser to download. */
function watchDownloads(): string[] {
  const started: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    started.push(this.href);
  });
  return started;
}

const publicCollection = () => ({
  'GET /api/public/collections/:slug': json(collection()),
  'GET /api/public/collections/:slug/files': filesOf,
  'GET /api/public/collections/:slug/download-links': linksOf(),
});

const requestPaths = (requests: StubRequest[]) => requests.map((r) => `${r.method} ${r.path}${r.url.search}`);

afterEach(() => {
  document.head.querySelector('meta[name="parcel-custom-domain"]')?.remove();
});

describe('Collection page /c/:slug', () => {
  it('shows a public collection, browses into a folder with the URL, and downloads a folder and a file', async () => {
    const server = collectionServer(publicCollection());
    const downloads = watchDownloads();
    const { user, router } = renderApp('/c/look1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' })).toBeInTheDocument();
    expect(screen.getByText(/Shared by/)).toHaveTextContent('Shared by Analytical Engines');
    // Untrusted text is text, never markup.
    expect(screen.getByText(/Final selects\./)).toHaveTextContent('<b>Enjoy</b> <script>alert(1)</script>');
    expect(document.querySelector('main script, main b')).toBeNull();
    expect(screen.getByText('5 files · 7.4 MB · 3 folders')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Files and folders' })).toBeInTheDocument();

    // Folders first, by name as people sort them; then the files with their type and size.
    const folders = screen.getByRole('list', { name: 'Folders' });
    expect(
      within(folders)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Day 1', 'Day 10']);
    const files = await screen.findByRole('list', { name: 'Files' });
    const rows = within(files).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('JPG image · 1.2 MB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('PDF document · 52 KB')).toBeInTheDocument();

    await user.click(within(folders).getByRole('link', { name: 'Day 1' }));
    const location = await screen.findByRole('heading', { level: 2, name: 'Day 1' });
    expect(router.state.location.search).toEqual({ folder: 'fo_day1' });
    expect(location).toHaveFocus();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Spring lookbook' })).not.toHaveAttribute('aria-current');
    expect(within(crumbs).getByText('Day 1')).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('list', { name: 'Folders' })).getByRole('link', { name: 'Raw' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Download wide <1>.png' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download folder Day 1' }));
    await waitFor(() => expect(downloads).toEqual(['http://localhost:8080/dl/v1-zip-fo_day1']));

    await user.click(screen.getByRole('button', { name: 'Download portrait.jpg' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]).toBe('http://localhost:8080/dl/v1-fi_portrait');
    // The link was checked before the browser was sent to it.
    expect(server.requestsTo('HEAD /dl/v1-fi_portrait')).toHaveLength(1);

    // Back goes back up.
    router.history.back();
    expect(await screen.findByRole('heading', { level: 2, name: 'Files and folders' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Download all/ }));
    await waitFor(() => expect(downloads).toHaveLength(3));
    expect(downloads[2]).toBe('http://localhost:8080/dl/v1-zip-all');

    // Only the collection's public API, with cookies for its own path (a guest's session) and never a dashboard credential.
    for (const request of server.requests.filter((r) => r.path.startsWith('/api/'))) {
      expect(request.path.startsWith('/api/public/collections/look1')).toBe(true);
      expect(request.headers.get('authorization')).toBeNull();
    }
    expect(requestPaths(server.requests)).toContain('GET /api/public/collections/look1/files?folderId=fo_day1&limit=200');
    expect(server.credentials.filter((c) => c !== 'omit').every((c) => c === 'same-origin')).toBe(true);
  });

  it('holds back the download of a file being checked for viruses and opens it once the file is clean', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let checking = true;
      collectionServer({
        ...publicCollection(),
        'GET /api/public/collections/:slug/files': (request) => {
          const answer = filesOf(request) as { body: { files: PublicCollectionFile[] } };
          return json({ files: answer.body.files.map((f) => ({ ...f, scanPending: checking && f.id === 'fi_brief' })), nextCursor: null });
        },
      });
      renderApp('/c/look1');

      const brief = await screen.findByRole('button', { name: 'Download brief.pdf' });
      expect(brief).toBeDisabled();
      expect(screen.getByText(/PDF document · 52 KB · Checking for viruses…/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Download cover.jpg' })).toBeEnabled();

      checking = false;
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Download brief.pdf' })).toBeEnabled());
      expect(screen.queryByText(/Checking for viruses/)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('switches between the list and a grid of thumbnails, and remembers it', async () => {
    collectionServer(publicCollection());
    const { user } = renderApp('/c/look1');
    const grid = await screen.findByRole('button', { name: 'Grid' });
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(grid);
    expect(grid).toHaveAttribute('aria-pressed', 'true');
    expect(window.localStorage.getItem('parcel-collection-view')).toBe('grid');
    const files = await screen.findByRole('list', { name: 'Files' });
    expect(within(files).getByRole('button', { name: 'Preview cover.jpg' })).toBeInTheDocument();
    expect(within(files).getByRole('button', { name: 'Download brief.pdf' })).toBeInTheDocument();
  });

  it('opens a preview in a lightbox: arrows move between the folder’s previews (its text too), Esc closes and gives focus back', async () => {
    collectionServer(publicCollection());
    const downloads = watchDownloads();
    const { user } = renderApp('/c/look1?folder=fo_day1');
    const opener = await screen.findByRole('button', { name: 'Preview portrait.jpg' });
    await user.click(opener);

    let dialog = screen.getByRole('dialog', { name: 'Preview of portrait.jpg' });
    expect(within(dialog).getByText('1 of 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'portrait.jpg' })).toHaveAttribute('src', 'http://localhost:8080/thumb/fi_portrait');
    expect(within(dialog).getByRole('button', { name: 'Previous file' })).toBeDisabled();

    await user.keyboard('{ArrowRight}');
    dialog = screen.getByRole('dialog', { name: 'Preview of wide <1>.png' });
    expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Download wide <1>.png' }));
    await waitFor(() => expect(downloads).toEqual(['http://localhost:8080/dl/v1-fi_wide']));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Preview of portrait.jpg' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('loads a big folder a page at a time with the cursor', async () => {
    const many = Array.from({ length: 250 }, (_, i) => file(`fi_${i}`, `frame-${i}.raw`, null, 'application/octet-stream', false));
    const server = collectionServer({
      ...publicCollection(),
      'GET /api/public/collections/:slug': json(collection({ folders: [], fileCount: 250 })),
      'GET /api/public/collections/:slug/files': (request) =>
        request.url.searchParams.get('cursor') === 'next1'
          ? json({ files: many.slice(200), nextCursor: null })
          : json({ files: many.slice(0, 200), nextCursor: 'next1' }),
    });
    const { user } = renderApp('/c/big1');
    const files = await screen.findByRole('list', { name: 'Files' });
    expect(within(files).getAllByRole('listitem')).toHaveLength(200);
    await user.click(screen.getByRole('button', { name: 'Load more files' }));
    await waitFor(() => expect(within(files).getAllByRole('listitem')).toHaveLength(250));
    expect(screen.queryByRole('button', { name: 'Load more files' })).not.toBeInTheDocument();
    expect(requestPaths(server.requests)).toContain('GET /api/public/collections/big1/files?folderId=root&limit=200&cursor=next1');
  });

  it('asks for the password, says when it is wrong or rate limited, then opens and keeps the unlock for the page', async () => {
    window.history.replaceState(null, '', '/c/locked1');
    let attempts = 0;
    const server = collectionServer({
      ...publicCollection(),
      'GET /api/public/collections/:slug': (request) =>
        request.headers.get('x-collection-unlock') === 'unl_good'
          ? json(collection({ visibility: 'password', access: 'password' }))
          : apiError(401, 'password_required', 'This collection is protected by a password.'),
      'POST /api/public/collections/:slug/unlock': (request) => {
        attempts += 1;
        if (attempts === 2) return apiError(429, 'rate_limited', 'Slow down', {}, { 'Retry-After': '42' });
        return (request.body as { password: string }).password === 'open sesame'
          ? json({ unlockToken: 'unl_good', expiresAt: new Date(Date.now() + hour).toISOString() })
          : apiError(401, 'wrong_password', 'That is not the password of this collection.');
      },
    });
    const { user } = renderApp('/c/locked1');

    expect(await screen.findByRole('heading', { level: 1, name: 'This collection is protected' })).toBeInTheDocument();
    const field = screen.getByLabelText('Password');
    await user.type(field, 'guess');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("That password isn't right. Check it and try again.");
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Too many attempts, try again in 42 seconds.')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'open sesame{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Files' });
    const files = server.requestsTo('GET /api/public/collections/locked1/files');
    expect(files.at(-1)!.headers.get('x-collection-unlock')).toBe('unl_good');
    expect(document.cookie).toContain('parcel_unlock_locked1=');
    expect(window.sessionStorage.length + window.localStorage.length).toBe(0);

    // A reload opens without asking again.
    cleanup();
    renderApp('/c/locked1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' })).toBeInTheDocument();
    expect(server.requestsTo('POST /api/public/collections/locked1/unlock')).toHaveLength(3);
  });

  it('offers a private collection’s visitor a sign-in link by mail, and says the same whoever they are', async () => {
    const server = collectionServer({
      'GET /api/public/collections/:slug': apiError(403, 'guests_only', 'This collection is shared only with invited guests.'),
      'POST /api/public/collections/:slug/guest-sign-in': json({ sent: true }, 202),
    });
    const { user } = renderApp('/c/priv1');

    expect(await screen.findByRole('heading', { level: 1, name: 'This collection is shared with invited guests' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me a sign-in link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your email address');
    expect(server.requestsTo('POST /api/public/collections/priv1/guest-sign-in')).toHaveLength(0);

    await user.type(screen.getByLabelText('Email address'), 'ada@example.com{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('If ada@example.com is on the guest list, a sign-in link is on its way.');
    expect(server.requestsTo('POST /api/public/collections/priv1/guest-sign-in')[0]!.body).toEqual({ email: 'ada@example.com' });
    // Nothing of the collection was shown.
    expect(screen.queryByText('Spring lookbook')).not.toBeInTheDocument();
  });

  it('trades a mailed sign-in link for a session before anything else, takes the token out of the address, and signs out', async () => {
    let signedIn = false;
    const server = collectionServer({
      ...publicCollection(),
      'GET /api/public/collections/:slug': () =>
        signedIn
          ? json(collection({ visibility: 'private', access: 'guest', guestEmail: 'guest@example.com' }))
          : apiError(403, 'guests_only', 'This collection is shared only with invited guests.'),
      'POST /api/public/collections/:slug/guest-session': (request) => {
        signedIn = (request.body as { token: string }).token === 'tok_mailed';
        return json({ email: 'guest@example.com', expiresAt: new Date(Date.now() + 30 * 24 * hour).toISOString() });
      },
      'DELETE /api/public/collections/:slug/guest-session': () => {
        signedIn = false;
        return noContent;
      },
    });
    const { user, router } = renderApp('/c/priv1?guest=tok_mailed&folder=fo_day1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' })).toBeInTheDocument();
    expect(requestPaths(server.requests)[0]).toBe('POST /api/public/collections/priv1/guest-session');
    expect(router.state.location.search).toEqual({ folder: 'fo_day1' });
    expect(router.state.location.href).not.toContain('tok_mailed');
    expect(screen.getByRole('heading', { level: 2, name: 'Day 1' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('Signed in as guest@example.com');
    expect(server.requestsTo('POST /api/public/collections/priv1/guest-session')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This collection is shared with invited guests' })).toBeInTheDocument();
    expect(screen.getByText('You signed out.')).toBeInTheDocument();
    expect(server.requestsTo('DELETE /api/public/collections/priv1/guest-session')).toHaveLength(1);
  });

  it('explains an expired or used sign-in link and offers a new one', async () => {
    const server = collectionServer({
      'POST /api/public/collections/:slug/guest-session': apiError(410, 'link_unavailable', 'This sign-in link has expired or was used already.', {
        reason: 'expired',
      }),
      'POST /api/public/collections/:slug/guest-sign-in': json({ sent: true }, 202),
    });
    const { user, router } = renderApp('/c/priv1?guest=tok_old');
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in link has expired' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(server.requestsTo('GET /api/public/collections/priv1')).toHaveLength(0);
    await user.type(screen.getByLabelText('Email address'), 'guest@example.com{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
  });

  it('sends a guest removed while browsing to the guests-only page on their next click', async () => {
    let removed = false;
    const guestsOnly = apiError(403, 'guests_only', 'This collection is shared only with invited guests.');
    collectionServer({
      ...publicCollection(),
      'GET /api/public/collections/:slug': json(collection({ visibility: 'private', access: 'guest', guestEmail: 'guest@example.com' })),
      'GET /api/public/collections/:slug/files': (request) => (removed ? guestsOnly : filesOf(request)),
      'GET /api/public/collections/:slug/download-links': (request) => (removed ? guestsOnly : linksOf()(request)),
    });
    const { user } = renderApp('/c/priv1');
    const folders = await screen.findByRole('list', { name: 'Folders' });
    removed = true;
    await user.click(within(folders).getByRole('link', { name: 'Day 1' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This collection is shared with invited guests' })).toBeInTheDocument();
    expect(screen.queryByText('Spring lookbook')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
  });

  it('finds out why when a download link it already had is refused, and shows the guests-only page', async () => {
    let removed = false;
    const server = collectionServer({
      ...publicCollection(),
      'GET /api/public/collections/:slug': json(collection({ visibility: 'private', access: 'guest', guestEmail: 'guest@example.com' })),
      'GET /api/public/collections/:slug/download-links': (request) =>
        removed ? apiError(403, 'guests_only', 'This collection is shared only with invited guests.') : linksOf()(request),
      'HEAD /dl/:token': () => (removed ? apiError(410, 'link_unavailable', 'Gone', { reason: 'revoked' }) : { status: 200 }),
    });
    const downloads = watchDownloads();
    const { user } = renderApp('/c/priv1');
    await user.click(await screen.findByRole('button', { name: 'Download cover.jpg' }));
    await waitFor(() => expect(downloads).toEqual(['http://localhost:8080/dl/v1-fi_cover']));

    removed = true;
    await user.click(screen.getByRole('button', { name: 'Download brief.pdf' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This collection is shared with invited guests' })).toBeInTheDocument();
    expect(downloads).toHaveLength(1);
    // The cached links were checked, then asked for again, which said why.
    expect(server.requestsTo('HEAD /dl/v1-fi_brief')).toHaveLength(1);
    expect(server.requestsTo('GET /api/public/collections/priv1/download-links')).toHaveLength(2);
  });

  it.each([
    [apiError(404, 'not_found', 'Collection not found'), "This link doesn't work"],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'suspended' }), 'This collection is not available right now'],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'deleted' }), 'This collection was deleted'],
  ])('shows a friendly page when the collection cannot be shown (%#)', async (answer, title) => {
    collectionServer({ 'GET /api/public/collections/:slug': answer });
    renderApp('/c/gone1');
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.queryByText(/Collection not found/)).not.toBeInTheDocument();
  });

  it('says so when a folder in the address is not in the collection', async () => {
    collectionServer(publicCollection());
    const { user } = renderApp('/c/look1?folder=fo_gone');
    expect(await screen.findByRole('heading', { level: 2, name: 'Folder not found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Spring lookbook' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Files and folders' })).toBeInTheDocument();
  });
});

describe('Collection page at /<slug> on a workspace’s own domain', () => {
  it('is the collection page where the server marked the page as a custom domain’s', async () => {
    const meta = document.createElement('meta');
    meta.name = 'parcel-custom-domain';
    meta.content = 'true';
    document.head.append(meta);
    const server = collectionServer(publicCollection());
    renderApp('/look1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring lookbook' })).toBeInTheDocument();
    expect(server.requestsTo('GET /api/public/collections/look1')).toHaveLength(1);
  });

  it('is the not-found page on the service’s own host, asking nothing of the API', async () => {
    const server = collectionServer(publicCollection());
    renderApp('/look1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });
});
