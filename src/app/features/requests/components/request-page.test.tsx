import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';
import { submissionFixture, uploadRequestFixture } from '../testing/request-fixtures';
import { requestsServer } from '../testing/requests-server';

describe('upload request page', () => {
  it('shows the link to copy and scan, the settings, the request’s state and who made it', async () => {
    requestsServer({
      requests: [
        uploadRequestFixture({
          folderId: 'fo_in',
          collectionId: 'col_2',
          deadline: '2031-05-01T09:30:00.000Z',
          maxFiles: 20,
          maxBytes: 1_500_000_000,
          allowedTypes: ['image/*', 'application/pdf'],
          requireEmail: true,
          createdBy: { kind: 'member', id: 'usr_9', name: 'Grace Hopper', email: 'grace@example.com' },
        }),
      ],
    });
    renderApp('/requests/req_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Signed contracts' })).toBeInTheDocument();
    expect(screen.getByText('Open')).toBeInTheDocument();
    expect(screen.getByText('by Grace Hopper')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Upload link' })).toHaveValue('http://localhost:8080/r/Rq7kQ2mR8sT1vW3xY7zA0b');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of the link to Signed contracts' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open the upload page/ })).toHaveAttribute('href', 'http://localhost:8080/r/Rq7kQ2mR8sT1vW3xY7zA0b');

    const settings = screen.getByRole('region', { name: 'Settings' });
    expect(await within(settings).findByRole('link', { name: 'Client uploads' })).toHaveAttribute('href', '/collections/col_2');
    expect(await within(settings).findByRole('link', { name: 'Inbox' })).toHaveAttribute('href', '/collections/col_2?folder=fo_in');
    expect(within(settings).getByText('At most 20')).toBeInTheDocument();
    expect(within(settings).getByText('At most 1.5 GB')).toBeInTheDocument();
    expect(within(settings).getByText('image/*')).toBeInTheDocument();
    expect(within(settings).getByText('Required')).toBeInTheDocument();
    expect(within(settings).getByText('Please send the signed pages.')).toBeInTheDocument();

    for (const name of ['Edit', 'Pause', 'Close request']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
  });

  it('pauses and resumes the request', async () => {
    const network = requestsServer();
    const { user } = renderApp('/requests/req_1');

    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.getByText('Paused')).toBeInTheDocument();
    expect(screen.getByText(/takes no new files until you resume it/)).toBeInTheDocument();
    expect(screen.getByText('Request paused.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(screen.getByText('Request resumed.')).toBeInTheDocument();

    expect(network.requestsTo('PATCH /api/v1/requests/req_1').map((r) => r.body)).toEqual([{ status: 'paused' }, { status: 'open' }]);
  });

  it('closes the request only after a confirmation that says it is final, and then offers no more changes', async () => {
    const network = requestsServer();
    const { user } = renderApp('/requests/req_1');

    await user.click(await screen.findByRole('button', { name: 'Close request' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Close “Signed contracts”?' });
    expect(confirm).toHaveTextContent('Closing is final');
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(network.requestsTo('PATCH /api/v1/requests/req_1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Close request' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Close request' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(network.requestsTo('PATCH /api/v1/requests/req_1').map((r) => r.body)).toEqual([{ status: 'closed' }]);
    expect(screen.getByText('Closed')).toBeInTheDocument();
    for (const name of ['Edit', 'Pause', 'Resume', 'Close request']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByText('Request closed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Signed contracts' })).toHaveFocus());
  });

  it('offers no changes to a closed request', async () => {
    requestsServer({ requests: [uploadRequestFixture({ status: 'closed', acceptingFiles: false })] });
    renderApp('/requests/req_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed contracts' })).toBeInTheDocument();
    expect(screen.getByText('Closed')).toBeInTheDocument();
    expect(screen.getByText(/the request cannot be changed/)).toBeInTheDocument();
    for (const name of ['Edit', 'Pause', 'Resume', 'Close request']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('shows a refused change, and the request as it is now', async () => {
    let closedElsewhere = false;
    requestsServer({
      extra: {
        'GET /api/v1/requests/:id': () => ({ body: { request: uploadRequestFixture(closedElsewhere ? { status: 'closed', acceptingFiles: false } : {}) } }),
        'PATCH /api/v1/requests/:id': () => {
          closedElsewhere = true;
          return apiError(409, 'conflict', 'This upload request is closed: it takes no more changes.', { reason: 'closed' });
        },
      },
    });
    const { user } = renderApp('/requests/req_1');
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Closed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
  });

  it('lists the submissions with the uploader, their message as text, their files and a link to their folder', async () => {
    const message = 'Here you go <script>alert("x")</script>\nSecond line <b>bold</b>';
    const files = Array.from({ length: 8 }, (_, i) => ({
      id: `fi_${i}`,
      name: `photo-${i + 1}.jpg`,
      sizeBytes: 1_000_000,
      mimeType: 'image/jpeg',
      folderId: 'fo_sub2',
      state: 'complete' as const,
    }));
    requestsServer({
      submissions: [
        submissionFixture({
          id: 'sub_2',
          uploader: { name: 'Ada <img src=x onerror=alert(1)>', email: null },
          message,
          status: 'uploading',
          folderId: 'fo_sub2',
          fileCount: 8,
          sizeBytes: 8_000_000,
          files,
          completedAt: null,
        }),
        submissionFixture(),
      ],
    });
    const { user, container } = renderApp('/requests/req_1');

    const submissions = await screen.findByRole('region', { name: 'Submissions' });
    expect(within(submissions).getByText('2 submissions')).toBeInTheDocument();

    const ada = within(submissions).getByRole('heading', { name: 'Ada <img src=x onerror=alert(1)>' }).closest('li')!;
    const quote = ada.querySelector('blockquote')!;
    expect(quote.textContent).toBe(message);
    expect(quote).toHaveClass('whitespace-pre-wrap');
    expect(container.ownerDocument.querySelector('script')).toBeNull();
    expect(container.ownerDocument.querySelector('b, img[src="x"]')).toBeNull();
    expect(within(ada).getByText('Uploading')).toBeInTheDocument();
    expect(within(ada).getByText('No email address given')).toBeInTheDocument();
    expect(within(ada).getByText(/8 files · 8 MB ·/)).toBeInTheDocument();

    const fileList = within(ada).getByRole('list', { name: /^Files from Ada/ });
    expect(within(fileList).getAllByRole('listitem')).toHaveLength(5);
    const more = within(ada).getByRole('button', { name: 'Show all 8 files' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(within(fileList).getAllByRole('listitem')).toHaveLength(8);
    expect(within(ada).getByRole('button', { name: 'Show fewer files' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(ada).getByRole('link', { name: /^Open folder/ })).toHaveAttribute('href', '/collections/col_1?folder=fo_sub2');

    const grace = within(submissions).getByRole('heading', { name: 'Grace Hopper' }).closest('li')!;
    expect(within(grace).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute('href', 'mailto:grace@example.com');
    expect(within(grace).getByText('Complete')).toBeInTheDocument();
    expect(within(grace).getByText('contract.pdf')).toBeInTheDocument();
    expect(within(grace).getByText('2 MB')).toBeInTheDocument();
    expect(within(grace).queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
    expect(within(grace).getByRole('link', { name: 'Open folder of Grace Hopper’s submission' })).toHaveAttribute('href', '/collections/col_1?folder=fo_sub1');
  });

  it('marks a submission its uploader did not send, and publishes or discards it only after a confirmation', async () => {
    const unsent = submissionFixture({ id: 'sub_2', uploader: { name: 'Ida Early', email: null }, status: 'uploading', sent: false, discardAt: '2031-03-20T10:00:00.000Z' });
    const network = requestsServer({
      submissions: [unsent, submissionFixture()],
      extra: {
        'POST /api/v1/requests/:id/submissions/:submissionId/publish': () => json({ submission: { ...unsent, sent: true, discardAt: null, status: 'complete' } }),
        'DELETE /api/v1/requests/:id/submissions/:submissionId': () => json({ deleted: true }),
      },
    });
    const { user } = renderApp('/requests/req_1');
    const submissions = await screen.findByRole('region', { name: 'Submissions' });
    const ida = within(submissions).getByRole('heading', { name: 'Ida Early' }).closest('li')!;
    expect(within(ida).getByText('Not sent yet')).toBeInTheDocument();
    expect(ida).toHaveTextContent('Only you see them');
    expect(ida).toHaveTextContent(/deleted on .*2031/);
    const grace = within(submissions).getByRole('heading', { name: 'Grace Hopper' }).closest('li')!;
    expect(within(grace).queryByRole('button', { name: /Publish|Discard/ })).not.toBeInTheDocument();

    await user.click(within(ida).getByRole('button', { name: 'Publish the files of Ida Early' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Publish the files of Ida Early?' })).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/requests/req_1/submissions/sub_2/publish')).toHaveLength(1));

    await user.click(within(ida).getByRole('button', { name: 'Discard the files of Ida Early' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Discard the files of Ida Early?' });
    expect(confirm).toHaveTextContent('deleted for good');
    await user.click(within(confirm).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(network.requestsTo('DELETE /api/v1/requests/req_1/submissions/sub_2')).toHaveLength(1));
  });

  it('says when nothing has been sent yet', async () => {
    requestsServer({ submissions: [] });
    renderApp('/requests/req_1');
    expect(await screen.findByText(/Nothing has been sent yet/)).toBeInTheDocument();
  });

  it('shows a request of a free workspace without offering changes', async () => {
    requestsServer({ plan: 'free', requests: [uploadRequestFixture({ acceptingFiles: false })] });
    renderApp('/requests/req_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed contracts' })).toBeInTheDocument();
    expect(screen.getByText('Not accepting files')).toBeInTheDocument();
    expect(screen.getByText('The upload page takes no files while this workspace is on the free plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
  });

  it('says so when the request does not exist', async () => {
    requestsServer();
    renderApp('/requests/req_nope');
    expect(await screen.findByRole('heading', { name: 'Upload request not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All upload requests' })).toHaveAttribute('href', '/requests');
  });
});
