import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';
import { uploadRequestFixture } from '../testing/request-fixtures';
import { requestsServer } from '../testing/requests-server';

describe('the upload request form', () => {
  it('creates a request with every setting, then opens its page', async () => {
    const network = requestsServer({ requests: [] });
    const { user, router } = renderApp('/requests');

    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();

    await user.type(within(dialog).getByLabelText('Title'), 'Wedding photos');
    await user.type(within(dialog).getByLabelText('Message (optional)'), 'Full resolution, please.{Enter}Thank you!');
    await user.selectOptions(await within(dialog).findByLabelText('Collection'), 'Client uploads');
    const folder = within(dialog).getByLabelText('Folder');
    await waitFor(() => expect(folder).toBeEnabled());
    expect(
      within(folder)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Top level of the collection', 'Inbox', 'Inbox / 2026']);
    await user.selectOptions(folder, 'Inbox / 2026');
    fireEvent.change(within(dialog).getByLabelText('Deadline (optional)'), { target: { value: '2031-05-01T09:30' } });
    await user.clear(within(dialog).getByLabelText('Most files per submission'));
    await user.type(within(dialog).getByLabelText('Most files per submission'), '20');
    await user.type(within(dialog).getByLabelText('Most data per submission'), '1.5');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Unit' }), 'GB');
    await user.click(within(dialog).getByRole('button', { name: /^Images/ }));
    expect(within(dialog).getByRole('button', { name: /^Images/ })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: /^PDF/ }));
    await user.click(within(dialog).getByRole('button', { name: /^PDF/ }));
    await user.click(within(dialog).getByRole('button', { name: /^Videos/ }));
    await user.type(within(dialog).getByLabelText('Other types'), 'Application/ZIP{Enter}');
    expect(within(dialog).getByRole('list', { name: 'Chosen types' })).toHaveTextContent('image/*video/*application/zip');
    await user.click(within(dialog).getByRole('button', { name: 'Remove video/*' }));
    await user.click(within(dialog).getByLabelText('Require an email address'));
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/req_new'));
    expect(network.requestsTo('POST /api/v1/requests')[0]?.body).toEqual({
      title: 'Wedding photos',
      message: 'Full resolution, please.\nThank you!',
      collectionId: 'col_2',
      folderId: 'fo_2026',
      deadline: new Date('2031-05-01T09:30').toISOString(),
      maxFiles: 20,
      maxBytes: 1_500_000_000,
      allowedTypes: ['image/*', 'application/zip'],
      requireEmail: true,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
  });

  it('creates nothing on Enter in a field: only the Create request button does', async () => {
    const network = requestsServer({ requests: [] });
    const { user } = renderApp('/requests');
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    await user.selectOptions(await within(dialog).findByLabelText('Collection'), 'Client uploads');
    await user.type(within(dialog).getByLabelText('Title'), 'Wedding photos{Enter}');
    await user.clear(within(dialog).getByLabelText('Most files per submission'));
    await user.type(within(dialog).getByLabelText('Most files per submission'), '20{Enter}');
    expect(network.requestsTo('POST /api/v1/requests')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'New upload request' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/requests')).toHaveLength(1));
  });

  it('sends the default number of files, no other limit, no deadline and any type when those are left as they are', async () => {
    const network = requestsServer({ requests: [] });
    const { user } = renderApp('/requests');
    await user.click(await screen.findByRole('button', { name: 'Create your first request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    await user.type(within(dialog).getByLabelText('Title'), 'Receipts');
    await user.selectOptions(await within(dialog).findByLabelText('Collection'), 'Spring lookbook');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    await waitFor(() => expect(network.requestsTo('POST /api/v1/requests')).toHaveLength(1));
    expect(network.requestsTo('POST /api/v1/requests')[0]?.body).toEqual({
      title: 'Receipts',
      message: null,
      collectionId: 'col_1',
      folderId: null,
      deadline: null,
      // A new request shows the server's default, so the owner sees it and can change it.
      maxFiles: 500,
      maxBytes: null,
      allowedTypes: [],
      requireEmail: false,
    });
  });

  it('checks the fields before sending, and focuses the first one in error', async () => {
    const network = requestsServer({ requests: [] });
    const { user } = renderApp('/requests');
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    await within(dialog).findByRole('option', { name: 'Spring lookbook' });

    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription(expect.stringContaining('Give the request a title.'));
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
    expect(within(dialog).getByLabelText('Collection')).toHaveAccessibleDescription('Choose the collection the files go into.');

    await user.type(within(dialog).getByLabelText('Title'), 'Receipts');
    await user.selectOptions(within(dialog).getByLabelText('Collection'), 'Spring lookbook');
    fireEvent.change(within(dialog).getByLabelText('Deadline (optional)'), { target: { value: '2020-01-01T10:00' } });
    await user.clear(within(dialog).getByLabelText('Most files per submission'));
    await user.type(within(dialog).getByLabelText('Most files per submission'), '0');
    await user.type(within(dialog).getByLabelText('Other types'), 'pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    expect(within(dialog).getByLabelText('Deadline (optional)')).toHaveAccessibleDescription(expect.stringContaining('Choose a time in the future.'));
    expect(within(dialog).getByLabelText('Deadline (optional)')).toHaveFocus();
    expect(within(dialog).getByLabelText('Most files per submission')).toHaveAccessibleDescription(expect.stringContaining('at least 1'));
    expect(within(dialog).getByLabelText('Other types')).toHaveAccessibleDescription(expect.stringContaining('“pdf” is not a file type'));
    expect(network.requestsTo('POST /api/v1/requests')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Clear the deadline' }));
    expect(within(dialog).getByLabelText('Deadline (optional)')).toHaveValue('');
  });

  it("shows the server's refusal next to the field it names", async () => {
    requestsServer({
      requests: [],
      extra: {
        'POST /api/v1/requests': apiError(400, 'invalid_request', 'The request is not valid.', {
          fields: [{ path: 'folderId', message: 'no such folder in this collection' }],
        }),
      },
    });
    const { user } = renderApp('/requests');
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    await user.type(within(dialog).getByLabelText('Title'), 'Receipts');
    await user.selectOptions(await within(dialog).findByLabelText('Collection'), 'Client uploads');
    await waitFor(() => expect(within(dialog).getByLabelText('Folder')).toBeEnabled());
    await user.selectOptions(within(dialog).getByLabelText('Folder'), 'Inbox');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));

    expect(await within(dialog).findByText('No such folder in this collection.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Folder')).toHaveAccessibleDescription(expect.stringContaining('No such folder in this collection.'));
    expect(within(dialog).getByLabelText('Folder')).toHaveFocus();
    // Placed on its field, the message is not repeated above the form.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the upgrade notice when the server says the plan no longer allows creating', async () => {
    requestsServer({ requests: [], extra: { 'POST /api/v1/requests': apiError(402, 'upgrade_required', 'Upload requests need a paid plan.') } });
    const { user } = renderApp('/requests');
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const dialog = screen.getByRole('dialog', { name: 'New upload request' });
    await user.type(within(dialog).getByLabelText('Title'), 'Receipts');
    await user.selectOptions(await within(dialog).findByLabelText('Collection'), 'Spring lookbook');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    expect(await within(dialog).findByRole('heading', { name: 'Upload requests come with the paid plan' })).toBeInTheDocument();
  });

  it('edits a request, sending only what changed', async () => {
    const network = requestsServer({
      requests: [
        uploadRequestFixture({
          deadline: new Date(Date.now() - 3_600_000).toISOString(),
          acceptingFiles: false,
          maxBytes: 250_000_000,
          allowedTypes: ['application/pdf'],
        }),
      ],
    });
    const { user } = renderApp('/requests/req_1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit “Signed contracts”' });
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Signed contracts');
    expect(within(dialog).getByLabelText('Message (optional)')).toHaveValue('Please send the signed pages.');
    expect(within(dialog).getByLabelText('Most data per submission')).toHaveValue(250);
    expect(within(dialog).getByRole('combobox', { name: 'Unit' })).toHaveValue('MB');
    expect(within(dialog).getByRole('button', { name: /^PDF/ })).toHaveAttribute('aria-pressed', 'true');

    await user.clear(within(dialog).getByLabelText('Title'));
    await user.type(within(dialog).getByLabelText('Title'), 'Signed contracts 2026');
    await user.click(within(dialog).getByLabelText('Require an email address'));
    // The deadline that passed is left as it was: it is not sent back (the API refuses one in the past).
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.requestsTo('PATCH /api/v1/requests/req_1').map((r) => r.body)).toEqual([{ title: 'Signed contracts 2026', requireEmail: true }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed contracts 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toHaveFocus();
  });
});
