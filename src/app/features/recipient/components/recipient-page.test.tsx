import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DownloadSession, PublicTransfer } from '../../../../contract/public';
import { PUBLIC_PAGE_DATA_ID } from '../../../../contract/public-page';
import { resetPublicPageDataForTests } from '../../../lib/public-page-data';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';

const hour = 3_600_000;

function transfer(overrides: Partial<PublicTransfer> = {}): PublicTransfer {
  return {
    title: 'Wedding photos',
    message: 'Hi Bob,\nhere are the photos.',
    workspaceName: 'Analytical Engines',
    expiresAt: new Date(Date.now() + 3 * 24 * hour).toISOString(),
    hasPassword: false,
    e2ee: false,
    transferId: null,
    e2eeMeta: null,
    files: [
      { id: 'fil_1', name: 'ceremony.jpg', path: null, sizeBytes: 2_500_000, mimeType: 'image/jpeg', crc32: '0a1b2c3d', sealedMeta: null, sealedThumb: null, thumbnailUrl: 'http://localhost:8080/thumb/tok_1', scanPending: false },
      { id: 'fil_2', name: 'notes.pdf', path: 'docs/2026', sizeBytes: 1_200, mimeType: 'application/pdf', crc32: '0a1b2c3e', sealedMeta: null, sealedThumb: null, thumbnailUrl: null, scanPending: false },
    ],
    totalBytes: 2_501_200,
    zip: { name: 'Wedding photos.zip', sizeBytes: 2_501_500 },
    ...overrides,
  };
}

function session(id = 'dls_1', expiresAt = new Date(Date.now() + 12 * hour).toISOString()): DownloadSession {
  return {
    sessionId: id,
    files: [
      { id: 'fil_1', url: `http://localhost:8080/dl/${id}-file-1` },
      { id: 'fil_2', url: `http://localhost:8080/dl/${id}-file-2` },
    ],
    zip: { url: `http://localhost:8080/dl/${id}-zip` },
    expiresAt,
  };
}

/** The fetch stub, plus what each call asked of `credentials` (the stub itself does not record it). */
function publicServer(routes: Record<string, StubHandler>) {
  const network = stubFetch(routes);
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

describe('Recipient page /t/:slug', () => {
  it("shows the transfer the page's HTML carries without asking the API for it, and reads it afresh the next time", async () => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PUBLIC_PAGE_DATA_ID;
    element.textContent = JSON.stringify({ page: 'transfer', slug: 'abc123', transfer: transfer({ title: 'From the page' }) });
    document.head.append(element);
    resetPublicPageDataForTests();
    try {
      const server = publicServer({
        'GET /api/public/transfers/:slug': json(transfer({ title: 'From the API' })),
        'POST /api/public/transfers/:slug/sessions': json(session(), 201),
      });
      renderApp('/t/abc123');
      expect(await screen.findByRole('heading', { level: 1, name: 'From the page' })).toBeInTheDocument();
      expect(await screen.findByRole('link', { name: /download all/i })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-zip');
      expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([]);
      cleanup();

      // Another slug, or the same page opened again without a reload, asks the API as before.
      renderApp('/t/abc123');
      expect(await screen.findByRole('heading', { level: 1, name: 'From the API' })).toBeInTheDocument();
    } finally {
      element.remove();
      resetPublicPageDataForTests();
    }
  });

  it('shows the transfer and links every download to the session URLs, attributed to the recipient', async () => {
    const server = publicServer({
      'GET /api/public/transfers/:slug': json(transfer()),
      'POST /api/public/transfers/:slug/sessions': json(session(), 201),
    });
    renderApp('/t/abc123?r=rcp_token_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
    expect(screen.getByText(/here are the photos/)).toBeInTheDocument();
    expect(screen.getByText('Analytical Engines')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Files' })).toBeInTheDocument();

    const all = await screen.findByRole('link', { name: /download all/i });
    expect(all).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-zip');
    expect(all).toHaveAttribute('download');
    expect(all).toHaveTextContent('2.5 MB');

    const photo = screen.getByRole('link', { name: 'Download ceremony.jpg' });
    expect(photo).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-1');
    expect(photo).toHaveAttribute('download');
    expect(screen.getByRole('link', { name: 'Download notes.pdf' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-2');

    const rows = within(screen.getByRole('region', { name: 'Files' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('JPG image · 2.5 MB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('PDF document · 1.2 KB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('docs/2026/')).toBeInTheDocument();

    const sessions = server.requestsTo('POST /api/public/transfers/abc123/sessions');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.body).toEqual({ recipientToken: 'rcp_token_1' });
    // The token goes in that body and nowhere else.
    for (const request of server.requests) {
      expect(request.url.search).toBe('');
    }
    for (const link of screen.getAllByRole('link')) {
      expect(link.getAttribute('href') ?? '').not.toContain('rcp_token_1');
    }
  });

  it('shows the card in outline while the transfer loads, never a bare "Loading…"', async () => {
    publicServer({
      'GET /api/public/transfers/:slug': async () => {
        await new Promise((r) => setTimeout(r, 300));
        return json(transfer());
      },
      'POST /api/public/transfers/:slug/sessions': json(session(), 201),
    });
    renderApp('/t/abc123');
    expect(await screen.findByRole('status', { name: 'Loading transfer' })).toBeInTheDocument();
    expect(screen.queryByText(/Loading…/)).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
  });

  it('shows each download in its final words, disabled and busy, until the download session answers: nothing changes size', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    publicServer({
      'GET /api/public/transfers/:slug': json(transfer()),
      'POST /api/public/transfers/:slug/sessions': async () => {
        await answered;
        return json(session(), 201);
      },
    });
    renderApp('/t/abc123');

    const waitingAll = await screen.findByRole('button', { name: /^Download all/ });
    expect(waitingAll).toBeDisabled();
    expect(waitingAll).toHaveAttribute('aria-busy', 'true');
    expect(waitingAll).toHaveTextContent('Download all(2.5 MB zip)');
    const waitingPhoto = screen.getByRole('button', { name: 'Download ceremony.jpg' });
    expect(waitingPhoto).toBeDisabled();
    expect(waitingPhoto.querySelector('svg')).not.toBeNull();

    answer();
    const all = await screen.findByRole('link', { name: /^Download all/ });
    expect(all).toHaveTextContent(waitingAll.textContent!);
    const photo = screen.getByRole('link', { name: 'Download ceremony.jpg' });
    expect(photo.textContent).toBe(waitingPhoto.textContent);
    expect(screen.queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
  });

  it('offers the one file of a single-file transfer as the main download, not a zip', async () => {
    const one = transfer({ files: [transfer().files[0]!], totalBytes: 2_500_000, zip: { name: 'Wedding photos.zip', sizeBytes: 2_500_300 } });
    const only = { ...session(), files: [session().files[0]!] };
    publicServer({ 'GET /api/public/transfers/:slug': json(one), 'POST /api/public/transfers/:slug/sessions': json(only, 201) });
    renderApp('/t/abc123');

    const main = await screen.findByRole('link', { name: /^Download ceremony\.jpg \(2\.5 MB\)$/ });
    expect(main).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-1');
    expect(main).toHaveAttribute('download', 'ceremony.jpg');
    expect(screen.queryByRole('link', { name: /download all/i })).not.toBeInTheDocument();
    expect(screen.queryByText(/zip/)).not.toBeInTheDocument();
  });

  it('holds back the downloads of files being checked for viruses and offers them once they are clean', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const checking = transfer({ files: transfer().files.map((f, i) => ({ ...f, scanPending: i === 1 })) });
      let answer = checking;
      publicServer({ 'GET /api/public/transfers/:slug': () => json(answer), 'POST /api/public/transfers/:slug/sessions': json(session(), 201) });
      renderApp('/t/abc123');

      expect(await screen.findByText('Checking 1 of the files for viruses. It can be downloaded in a few seconds.')).toHaveAttribute('role', 'status');
      expect(await screen.findByRole('link', { name: 'Download ceremony.jpg' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-1');
      expect(screen.getByRole('button', { name: 'Checking for viruses… notes.pdf' })).toBeDisabled();
      expect(screen.queryByRole('link', { name: /download all/i })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Checking for viruses…' })).toBeDisabled();

      answer = transfer();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await screen.findByRole('link', { name: 'Download notes.pdf' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-2');
      expect(screen.getByRole('link', { name: /download all/i })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-zip');
      expect(screen.queryByText(/for viruses/)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps its visit going past a download limit it used up: the scan poll names the visit, and the file checked last can be downloaded', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const checking = transfer({ files: transfer().files.map((f, i) => ({ ...f, scanPending: i === 1 })) });
      let reads = 0;
      // As the server answers once this visit downloaded the one download allowed: only the visit itself may read on.
      const server = publicServer({
        'GET /api/public/transfers/:slug': ({ headers }) => {
          reads += 1;
          if (reads === 1) return json(checking);
          return headers.get('x-download-session') === 'dls_1'
            ? json(transfer())
            : apiError(410, 'link_unavailable', 'This link has reached its download limit.', { reason: 'limit_reached' });
        },
        'POST /api/public/transfers/:slug/sessions': json(session(), 201),
      });
      renderApp('/t/abc123');
      expect(await screen.findByRole('link', { name: 'Download ceremony.jpg' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-1');

      await vi.advanceTimersByTimeAsync(5_000);
      expect(await screen.findByRole('link', { name: 'Download notes.pdf' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-2');
      expect(screen.queryByText(/download limit/)).not.toBeInTheDocument();
      const pageReads = server.requestsTo('GET /api/public/transfers/abc123');
      expect(pageReads[0]!.headers.get('x-download-session')).toBeNull();
      expect(pageReads[1]!.headers.get('x-download-session')).toBe('dls_1');
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts a new session on the next click once the links have expired', async () => {
    let count = 0;
    const server = publicServer({
      'GET /api/public/transfers/:slug': json(transfer()),
      'POST /api/public/transfers/:slug/sessions': () => {
        count += 1;
        // The first session is already over by the time anyone clicks.
        return json(session(`dls_${count}`, new Date(Date.now() + (count === 1 ? -1000 : 12 * hour)).toISOString()), 201);
      },
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    const { user } = renderApp('/t/abc123');
    const photo = await screen.findByRole('link', { name: 'Download ceremony.jpg' });
    expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')).toHaveLength(1);

    photo.addEventListener('click', (event) => event.preventDefault());
    await user.click(photo);
    await waitFor(() => expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')).toHaveLength(2));
    await waitFor(() => expect(clicked).toEqual(['http://localhost:8080/dl/dls_2-file-1']));
    expect(screen.getByRole('link', { name: 'Download ceremony.jpg' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_2-file-1');
  });

  it('asks for the password, says when it is wrong, then unlocks for the browser session', async () => {
    // The page's own address, which the session cookie is scoped to.
    window.history.replaceState(null, '', '/t/locked1');
    const server = publicServer({
      'GET /api/public/transfers/:slug': (request) =>
        request.headers.get('x-transfer-unlock') === 'unl_good'
          ? json(transfer({ hasPassword: true }))
          : apiError(401, 'password_required', 'This transfer is protected by a password.'),
      'POST /api/public/transfers/:slug/unlock': (request) =>
        (request.body as { password: string }).password === 'open sesame'
          ? json({ unlockToken: 'unl_good', expiresAt: new Date(Date.now() + hour).toISOString() })
          : apiError(401, 'wrong_password', 'That is not the password of this transfer.'),
      'POST /api/public/transfers/:slug/sessions': (request) =>
        request.headers.get('x-transfer-unlock') === 'unl_good' ? json(session(), 201) : apiError(401, 'password_required', 'Locked'),
    });
    const { user } = renderApp('/t/locked1');

    const field = await screen.findByLabelText('Password');
    expect(screen.getByRole('heading', { level: 1, name: 'This transfer is protected' })).toBeInTheDocument();
    await user.type(field, 'guess');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("That password isn't right");
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field);
    await user.type(field, 'open sesame{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Download ceremony.jpg' })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-file-1');

    const gets = server.requestsTo('GET /api/public/transfers/locked1');
    expect(gets.at(-1)!.headers.get('x-transfer-unlock')).toBe('unl_good');
    const sessions = server.requestsTo('POST /api/public/transfers/locked1/sessions');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.headers.get('x-transfer-unlock')).toBe('unl_good');
    expect(sessions[0]!.body).toEqual({});
    // Kept in a session cookie of this page only: nothing in local or session storage.
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(document.cookie).toContain('parcel_unlock_locked1=');

    // A reload (or another tab of the link) opens without asking again.
    cleanup();
    const unlocks = server.requestsTo('POST /api/public/transfers/locked1/unlock').length;
    renderApp('/t/locked1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(server.requestsTo('POST /api/public/transfers/locked1/unlock')).toHaveLength(unlocks);
    expect(server.requestsTo('GET /api/public/transfers/locked1').at(-1)!.headers.get('x-transfer-unlock')).toBe('unl_good');
  });

  it('forgets a remembered unlock once it has expired, and asks again', async () => {
    window.history.replaceState(null, '', '/t/locked2');
    document.cookie = `parcel_unlock_locked2=${encodeURIComponent(`${Date.now() - 1000}.unl_old`)}; Path=/t/locked2`;
    const server = publicServer({
      'GET /api/public/transfers/:slug': apiError(401, 'password_required', 'This transfer is protected by a password.'),
    });
    renderApp('/t/locked2');
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    expect(server.requestsTo('GET /api/public/transfers/locked2')[0]!.headers.get('x-transfer-unlock')).toBeNull();
  });

  it.each([
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'expired' }), 'This transfer has expired'],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'revoked' }), 'The sender removed this transfer'],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'limit_reached' }), 'This transfer has reached its download limit'],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'infected' }), 'This transfer was blocked because a file contained malware'],
    [apiError(404, 'not_found', 'Transfer not found'), "This link doesn't work"],
  ])('shows a friendly page when the link is unavailable (%#)', async (answer, title) => {
    const server = publicServer({ 'GET /api/public/transfers/:slug': answer });
    renderApp('/t/gone1');
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.queryByText(/Transfer not found/)).not.toBeInTheDocument();
    expect(server.requestsTo('POST /api/public/transfers/gone1/sessions')).toHaveLength(0);
  });

  it('says the files are still arriving while its URL imports run, and shows them once they are in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let arrived = false;
      const server = publicServer({
        'GET /api/public/transfers/:slug': () =>
          arrived ? json(transfer()) : apiError(409, 'files_arriving', 'The files are still arriving.', { retryAfterSeconds: 15 }, { 'Retry-After': '15' }),
        'POST /api/public/transfers/:slug/sessions': json(session(), 201),
      });
      renderApp('/t/arriving1');

      expect(await screen.findByRole('heading', { name: 'The files are still arriving' })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Nothing can be downloaded yet');
      expect(screen.queryByRole('link', { name: /download/i })).not.toBeInTheDocument();
      expect(server.requestsTo('POST /api/public/transfers/:slug/sessions')).toHaveLength(0);

      arrived = true;
      await vi.advanceTimersByTimeAsync(15_000);
      expect(await screen.findByRole('link', { name: /download all/i })).toHaveAttribute('href', 'http://localhost:8080/dl/dls_1-zip');
      expect(screen.queryByText('The files are still arriving')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says how long to wait when rate limited', async () => {
    publicServer({
      'GET /api/public/transfers/:slug': apiError(429, 'rate_limited', 'Slow down', {}, { 'Retry-After': '42' }),
    });
    renderApp('/t/busy1');
    expect(await screen.findByText('Too many attempts, try again in 42 seconds.')).toBeInTheDocument();
  });

  it('never sends workspace credentials: only /api/public requests, all without cookies', async () => {
    const server = publicServer({
      'GET /api/public/transfers/:slug': json(transfer()),
      'POST /api/public/transfers/:slug/sessions': json(session(), 201),
    });
    renderApp('/t/abc123?r=rcp_token_1');
    await screen.findByRole('link', { name: /download all/i });

    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect(request.path.startsWith('/api/public/')).toBe(true);
      expect(request.path).not.toMatch(/^\/api\/(dashboard|v1)\//);
      expect(request.headers.get('authorization')).toBeNull();
    }
    expect(server.credentials).toHaveLength(server.requests.length);
    expect(server.credentials.every((c) => c === 'omit')).toBe(true);
  });

  it('shows a message with markup as plain text', async () => {
    publicServer({
      'GET /api/public/transfers/:slug': json(transfer({ message: '<script>alert("x")</script>\n<b>bold</b>' })),
      'POST /api/public/transfers/:slug/sessions': json(session(), 201),
    });
    const { container } = renderApp('/t/abc123');
    expect(await screen.findByText(/<script>alert\("x"\)<\/script>/)).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('drops an over-long r parameter instead of sending it', async () => {
    const server = publicServer({
      'GET /api/public/transfers/:slug': json(transfer()),
      'POST /api/public/transfers/:slug/sessions': json(session(), 201),
    });
    renderApp(`/t/abc123?r=${'x'.repeat(201)}`);
    await screen.findByRole('link', { name: /download all/i });
    expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')[0]!.body).toEqual({});
  });
});
