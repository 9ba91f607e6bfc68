import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';
import { submissionStorageKey, submissionUploadsStorageKey, type StoredSubmission } from '../utils/submission-store';

const day = 24 * 3_600_000;

function uploadRequest(overrides: Partial<PublicUploadRequest> = {}): PublicUploadRequest {
  return {
    title: 'Signed contracts',
    message: 'Hi!\nPlease send the signed pages.',
    workspaceName: 'Analytical Engines',
    state: 'open',
    closedReason: null,
    deadline: null,
    maxFiles: 10,
    maxBytes: 2_000_000_000,
    allowedTypes: ['application/pdf', 'image/*'],
    requireEmail: true,
    ...overrides,
  };
}

function page(request: PublicUploadRequest | StubHandler, routes: Record<string, StubHandler> = {}) {
  const network = stubFetch({ 'GET /api/public/requests/:slug': 'title' in request ? json(request) : request, ...routes });
  return { network, ...renderApp('/r/abc') };
}

/** Picks files in the uploader's own file input, as a person would with its "browse" link. */
async function addFiles(user: ReturnType<typeof renderApp>['user'], ...files: File[]) {
  // tus cannot read a File under happy-dom, and Uppy logs that: these tests are about what the server is told.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const region = await screen.findByRole('region', { name: 'Files to send' });
  await user.upload(region.querySelector<HTMLInputElement>('input[type=file]')!, files);
}

const pdf = (name: string) => new File(['%PDF-1.7'], name, { type: 'application/pdf' });

/** A submission an earlier visit started, as this browser remembers it. */
function remember(files: StoredSubmission['files'], details = { name: 'Ada Lovelace', email: 'ada@example.com', message: '' }) {
  const stored: StoredSubmission = { id: 'sub_1', token: 'st_1', details, startedAt: new Date().toISOString(), files };
  window.localStorage.setItem(submissionStorageKey('abc'), JSON.stringify(stored));
  window.localStorage.setItem(submissionUploadsStorageKey('abc'), JSON.stringify({ ownerId: 'sub_1', files: {} }));
}

describe('Upload request page /r/:slug', () => {
  it('shows the request: who asks, its title, message as text with its line breaks, deadline and limits in words', async () => {
    const deadline = new Date(Date.now() + 3 * day).toISOString();
    page(uploadRequest({ deadline, message: 'Hello <script>alert(1)</script>\n<b>bold</b>' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Signed contracts' })).toBeInTheDocument();
    expect(screen.getByText('Analytical Engines')).toBeInTheDocument();
    const message = screen.getByText(/Hello <script>alert\(1\)<\/script>/);
    expect(message).toHaveTextContent('Hello <script>alert(1)</script> <b>bold</b>');
    expect(message.querySelector('script, b')).toBeNull();
    expect(document.querySelector('main script')).toBeNull();
    expect(message).toHaveClass('whitespace-pre-line');

    expect(screen.getByText('Deadline').nextElementSibling).toHaveTextContent('in 3 days');
    expect(screen.getByText('File types').nextElementSibling).toHaveTextContent('PDF documents or images');
    expect(screen.getByText('Each time you send').nextElementSibling).toHaveTextContent('Up to 10 files, 2 GB in all');
    expect(document.title).toBe('Signed contracts · Parcel');
  });

  it('asks for a name and, when the request requires it, a valid email before the files', async () => {
    const { user } = page(uploadRequest({ requireEmail: true }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));

    const name = screen.getByLabelText('Your name');
    const email = screen.getByLabelText('Your email address');
    expect(name).toHaveAccessibleDescription('Enter your name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(email).toHaveAccessibleDescription(expect.stringContaining('Enter your email address'));

    await user.type(name, 'Ada Lovelace');
    await user.type(email, 'ada@example');
    expect(email).toHaveAccessibleDescription(expect.stringContaining('Enter a valid email address'));
    await user.type(email, '.com');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('region', { name: 'Files to send' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Message (optional)'), 'Here they are');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your files' })).toHaveFocus();
    expect(screen.getByRole('region', { name: 'Files to send' })).toBeInTheDocument();
    expect(screen.getByText(/Sending as/)).toHaveTextContent('Sending as Ada Lovelace (ada@example.com)');
    expect(screen.getByText('Here they are')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveAccessibleDescription('Add at least one file to send.');

    // Nothing is on the server yet: the details can still change.
    await user.click(screen.getByRole('button', { name: 'Change your details' }));
    expect(screen.getByLabelText('Your name')).toHaveValue('Ada Lovelace');
  });

  it('takes no email when none is required, but checks one that is typed', async () => {
    const { user } = page(uploadRequest({ requireEmail: false }));
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    const email = screen.getByLabelText('Your email address (optional)');
    await user.type(email, 'not-an-address');
    await user.tab();
    expect(email).toHaveAccessibleDescription(expect.stringContaining('Enter a valid email address'));
    await user.clear(email);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your files' })).toBeInTheDocument();
  });

  it.each([
    [uploadRequest({ state: 'paused' }), 'This request is paused', /isn't accepting files for “Signed contracts” right now/],
    [
      uploadRequest({ state: 'closed', closedReason: 'closed' }),
      'This request is no longer accepting files',
      /Analytical Engines has closed “Signed contracts”/,
    ],
    [
      uploadRequest({ state: 'closed', closedReason: 'deadline', deadline: '2026-01-05T17:00:00.000Z' }),
      'The deadline for this request has passed',
      /accepted files until .*2026/,
    ],
  ])('says when the request takes no files (%#)', async (request, heading, body) => {
    page(request);
    const title = await screen.findByRole('heading', { level: 1, name: heading });
    expect(title.closest('section')).toHaveTextContent(body);
    expect(screen.queryByLabelText('Your name')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Files to send' })).not.toBeInTheDocument();
  });

  it.each([
    [apiError(404, 'not_found', 'Upload request not found'), "This link doesn't work", /Check that you copied the whole link/],
    [apiError(410, 'link_unavailable', 'Gone', { reason: 'suspended' }), 'This upload link is not available right now', /paused the sender’s account/],
  ])('shows the recipient pages’ own page for an unknown or suspended link (%#)', async (answer, heading, body) => {
    page(answer);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByText(body)).toBeInTheDocument();
  });

  it('carries on with the submission of an earlier visit, sends it, and thanks', async () => {
    remember({ fil_1: { size: 1_500_000, delivered: true }, fil_2: { size: 500_000, delivered: true } });
    const { network, user } = page(uploadRequest(), {
      'POST /api/public/requests/:slug/submissions/:id/finish': json({
        submission: { id: 'sub_1', status: 'complete', fileCount: 2, sizeBytes: 2_000_000, folderName: 'Ada Lovelace 2026-11-22' },
      }),
    });

    expect(await screen.findByRole('heading', { level: 2, name: 'Your files' })).toBeInTheDocument();
    expect(screen.getByText(/Sending as/)).toHaveTextContent('Sending as Ada Lovelace (ada@example.com)');
    expect(screen.queryByRole('button', { name: /Change/ })).not.toBeInTheDocument();
    expect(screen.getByText('Already uploaded: 2 files (2 MB).')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send 2 files' }));

    expect(await screen.findByRole('heading', { name: 'Thank you!' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Your 2 files (2 MB) were delivered to Analytical Engines.');
    const [finish] = network.requestsTo('POST /api/public/requests/abc/submissions/sub_1/finish');
    expect(finish!.headers.get('x-submission-token')).toBe('st_1');
    expect(window.localStorage.getItem(submissionStorageKey('abc'))).toBeNull();
    expect(window.localStorage.getItem(submissionUploadsStorageKey('abc'))).toBeNull();

    // Sending more starts afresh, with the same details.
    await user.click(screen.getByRole('button', { name: 'Send more files' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your files' })).toHaveFocus();
    expect(screen.getByText(/Sending as/)).toHaveTextContent('Sending as Ada Lovelace (ada@example.com)');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Change your details' })).toBeInTheDocument();
  });

  it('keeps a started submission going when the request was paused since: what arrived can still be sent', async () => {
    remember({ fil_1: { size: 1_000, delivered: true } });
    page(uploadRequest({ state: 'paused' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your files' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This request is paused');
    expect(screen.getByRole('button', { name: 'Send 1 file' })).toBeEnabled();
  });

  it('lists the files an earlier visit left unfinished, and skipping them cancels them', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    remember({ fil_1: { size: 1_000, delivered: true }, fil_2: { size: 2_000, delivered: false } });
    window.localStorage.setItem(
      submissionUploadsStorageKey('abc'),
      JSON.stringify({
        ownerId: 'sub_1',
        files: { 'uppy-key-2': { fileId: 'fil_2', name: 'scan <2>.pdf', size: 2_000, path: 'contracts', uploadToken: 'upt_2', uploadTokenExpiresAt: later } },
      }),
    );
    const { network, user } = page(uploadRequest(), { 'DELETE /api/public/requests/:slug/submissions/:id/files/:fileId': json({ deleted: true }) });

    const earlier = await screen.findByRole('region', { name: 'Finish your earlier upload' });
    expect(within(earlier).getByRole('listitem')).toHaveTextContent('contracts/scan <2>.pdf (2 KB)');
    expect(screen.getByRole('button', { name: 'Send 2 files' })).toBeDisabled();
    await user.click(within(earlier).getByRole('button', { name: 'Skip this file' }));

    await waitFor(() => expect(screen.queryByRole('region', { name: 'Finish your earlier upload' })).not.toBeInTheDocument());
    expect(network.requestsTo('DELETE /api/public/requests/abc/submissions/sub_1/files/fil_2')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send 1 file' })).toBeEnabled();
  });

  it('switches to the paused page when the request was paused before the first file reached it', async () => {
    const { network, user } = page(uploadRequest({ requireEmail: false }), {
      'POST /api/public/requests/:slug/submissions': apiError(409, 'conflict', 'This upload request is paused and takes no new files for now.', {
        reason: 'paused',
      }),
    });
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await addFiles(user, pdf('a.pdf'));

    expect(await screen.findByRole('heading', { level: 1, name: 'This request is paused' })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/public/requests/abc/submissions')[0]!.body).toMatchObject({ name: 'Ada', email: null, message: null });
  });

  it('says so when the request closes while files are on the page, and still sends what arrived', async () => {
    remember({ fil_1: { size: 1_000, delivered: true } });
    const { network, user } = page(uploadRequest(), {
      'POST /api/public/requests/:slug/submissions/:id/files': apiError(409, 'conflict', 'The deadline of this upload request has passed.', {
        reason: 'deadline',
      }),
    });
    await addFiles(user, pdf('late.pdf'));

    const notice = await screen.findByText('The deadline for this request has passed');
    expect(notice.closest('[role=alert]')).toHaveTextContent('No new files can be added.');
    expect(notice.closest('[role=alert]')).toHaveTextContent('you can still send what you added');
    expect(network.requestsTo('POST /api/public/requests/abc/submissions/sub_1/files')[0]!.headers.get('x-submission-token')).toBe('st_1');
    // The refused file never uploads; the one that arrived can be sent.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send 1 file' })).toBeEnabled());
    expect(screen.getByTestId('upload-status')).toHaveTextContent('0 of 1 file uploaded · 1 not accepted.');
  });

  it('adds the first files that fit the request’s limit and says which were left out', async () => {
    // What the server answers does not matter here: only what the page asked it to register.
    const { network, user } = page(uploadRequest({ requireEmail: false, maxFiles: 5 }), {
      'POST /api/public/requests/:slug/submissions': apiError(503, 'unavailable', 'Try again later.'),
    });
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await addFiles(user, ...['1', '2', '3', '4', '5', '6'].map((n) => pdf(`page-${n}.pdf`)));

    // The message is the page's own, and stays: not a toast.
    expect(await screen.findByText('Only 5 files can be added here, so 1 file was left out: “page-6.pdf”.')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(network.requestsTo('POST /api/public/requests/abc/submissions')).toHaveLength(1));
    const registered = network.requestsTo('POST /api/public/requests/abc/submissions')[0]!.body as { files: { name: string }[] };
    expect(registered.files.map((f) => f.name)).toEqual(['page-1.pdf', 'page-2.pdf', 'page-3.pdf', 'page-4.pdf', 'page-5.pdf']);
  });

  it('shows the server’s reason clearly when it refuses files the page let through', async () => {
    const { user } = page(uploadRequest({ requireEmail: false, maxFiles: null }), {
      'POST /api/public/requests/:slug/submissions': apiError(400, 'invalid_request', 'Invalid body: files: this request takes at most 1 file per submission', {
        location: 'body',
        fields: [{ path: 'files', message: 'this request takes at most 1 file per submission' }],
      }),
    });
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await addFiles(user, pdf('a.pdf'), pdf('b.pdf'));

    const reason = await screen.findByText('These files were not accepted: this request takes at most 1 file per submission.');
    expect(reason.closest('[role=alert]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('keeps files of other types out before anything is sent', async () => {
    const { network, user } = page(uploadRequest({ requireEmail: false, allowedTypes: ['image/*'] }));
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const region = await screen.findByRole('region', { name: 'Files to send' });
    // The picker offers only those types; a file dropped anyway is refused with the request's words.
    expect(region.querySelector('input[type=file]')).toHaveAttribute('accept', 'image/*');
    fireEvent.change(region.querySelector<HTMLInputElement>('input[type=file]')!, { target: { files: [pdf('a.pdf')] } });
    // Uppy's informer (role=alert) says it.
    expect((await within(region).findAllByText(/Only images can be added here/))[0]!.closest('[role=alert]')).not.toBeNull();
    expect(network.requestsTo('POST /api/public/requests/abc/submissions')).toHaveLength(0);
  });
});
