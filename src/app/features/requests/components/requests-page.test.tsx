import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubFetch } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { uploadRequestFixture } from '../testing/request-fixtures';
import { requestsServer } from '../testing/requests-server';

const hour = 3_600_000;
const row = (title: string) => screen.getByRole('link', { name: title }).closest('li')!;

describe('upload requests page', () => {
  it('lists each request with its state, collection, submissions, files and last activity, linking to it', async () => {
    requestsServer({
      requests: [
        uploadRequestFixture({ id: 'req_1', title: 'Signed contracts', lastSubmissionAt: new Date(Date.now() - 2 * hour).toISOString() }),
        uploadRequestFixture({
          id: 'req_2',
          title: 'Wedding photos',
          status: 'paused',
          acceptingFiles: false,
          collectionId: 'col_2',
          submissionCount: 1,
          fileCount: 1,
          sizeBytes: 1_500,
          lastSubmissionAt: null,
          updatedAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        }),
        uploadRequestFixture({
          id: 'req_3',
          title: 'Tax documents',
          acceptingFiles: false,
          deadline: new Date(Date.now() - hour).toISOString(),
          submissionCount: 0,
          fileCount: 0,
          sizeBytes: 0,
        }),
        uploadRequestFixture({ id: 'req_4', title: 'Old shoot', status: 'closed', acceptingFiles: false, collectionId: null }),
      ],
    });
    renderApp('/requests');

    expect(await screen.findByRole('heading', { name: '4 requests' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Upload requests' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Signed contracts' })).toHaveAttribute('href', '/requests/req_1');

    const contracts = row('Signed contracts');
    expect(within(contracts).getByText('Open')).toBeInTheDocument();
    expect(await within(contracts).findByRole('link', { name: 'Spring lookbook' })).toHaveAttribute('href', '/collections/col_1');
    expect(within(contracts).getByText('2 submissions')).toBeInTheDocument();
    expect(within(contracts).getByText('5 files · 12 MB')).toBeInTheDocument();
    expect(within(contracts).getByText('2 hours ago')).toBeInTheDocument();

    const wedding = row('Wedding photos');
    expect(within(wedding).getByText('Paused')).toBeInTheDocument();
    expect(within(wedding).getByRole('link', { name: 'Client uploads' })).toHaveAttribute('href', '/collections/col_2');
    expect(within(wedding).getByText('1 submission')).toBeInTheDocument();
    expect(within(wedding).getByText('1 file · 1.5 KB')).toBeInTheDocument();
    // No submission yet: the last change is the last activity.
    expect(within(wedding).getByText('3 days ago')).toBeInTheDocument();

    expect(within(row('Tax documents')).getByText('Deadline passed')).toBeInTheDocument();
    expect(within(row('Tax documents')).queryByText('Open')).not.toBeInTheDocument();

    const old = row('Old shoot');
    expect(within(old).getByText('Closed')).toBeInTheDocument();
    expect(within(old).getByText('Collection deleted')).toBeInTheDocument();
    expect(within(old).queryByRole('link', { name: /collection/i })).not.toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'New request' })).toBeInTheDocument();
  });

  it('says who made each request, as the transfer list says who sent a transfer', async () => {
    requestsServer({
      requests: [
        uploadRequestFixture({ id: 'req_1', title: 'Mine', createdBy: { kind: 'member', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' } }),
        uploadRequestFixture({ id: 'req_2', title: 'Grace’s', createdBy: { kind: 'member', id: 'usr_9', name: null, email: 'grace@example.com' } }),
        uploadRequestFixture({ id: 'req_3', title: 'Nightly', createdBy: { kind: 'key', id: 'key_1', name: 'CI uploads', email: null } }),
        uploadRequestFixture({ id: 'req_4', title: 'Before teams', createdBy: null }),
      ],
    });
    renderApp('/requests');

    expect(await within(await waitFor(() => row('Mine'))).findByText('by you')).toBeInTheDocument();
    expect(within(row('Grace’s')).getByText('by grace@example.com')).toBeInTheDocument();
    expect(within(row('Nightly')).getByText('by API key “CI uploads”')).toBeInTheDocument();
    expect(within(row('Before teams')).queryByText(/^by /)).not.toBeInTheDocument();
  });

  it('explains upload requests and offers to create the first when there are none', async () => {
    requestsServer({ requests: [] });
    renderApp('/requests');

    expect(await screen.findByRole('heading', { name: 'No upload requests yet' })).toBeInTheDocument();
    expect(screen.getByText(/drop files straight into one of your collections, without an account/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create your first request' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New request' })).toBeInTheDocument();
  });

  it('lets a free workspace read its requests, and tells it creating one needs the paid plan', async () => {
    const network = stubFetch({
      ...signedIn('free'),
      'GET /api/v1/requests': { body: { requests: [uploadRequestFixture({ title: 'Signed contracts', acceptingFiles: false })] } },
      'GET /api/v1/collections': apiError(402, 'upgrade_required', 'Collections need a paid plan.'),
    });
    const { user } = renderApp('/requests');

    const contracts = (await screen.findByRole('link', { name: 'Signed contracts' })).closest('li')!;
    expect(within(contracts).getByText('Not accepting files')).toBeInTheDocument();
    // Without the collections API, the link says what it opens.
    expect(within(contracts).getByRole('link', { name: 'Open the collection' })).toHaveAttribute('href', '/collections/col_1');
    expect(network.requestsTo('GET /api/v1/collections')).toHaveLength(0);
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    expect(within(dialog).getByRole('heading', { name: 'Upload requests come with the paid plan' })).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Title')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a failure to read the list as an error with a way to try again', async () => {
    stubFetch({ ...signedIn('paid'), 'GET /api/v1/requests': apiError(500, 'internal_error', 'The server failed.') });
    renderApp('/requests');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The server failed.');
  });

  it('is in the main navigation, after Collections', async () => {
    requestsServer();
    const { user } = renderApp('/collections');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names.indexOf('Requests')).toBe(names.indexOf('Collections') + 1);
    await user.click(within(nav).getByRole('link', { name: 'Requests' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload requests' })).toBeInTheDocument();
  });
});
