import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Collection, CollectionSummary } from '../../../../../contract/collections';
import { apiError, json, stubFetch, type StubHandler } from '../../../../test/fetch-stub';
import { signedIn } from '../../../../test/fixtures';
import { renderApp } from '../../../../test/render-app';
import { collectionFixture, collectionSummaryFixture } from '../../testing/sharing-fixtures';

/** A server with a list of collections that creating and deleting change. */
function collectionsServer({ collections = [collectionSummaryFixture()], extra = {} as Record<string, StubHandler> } = {}) {
  let stored = [...collections];
  return stubFetch({
    ...signedIn('paid'),
    'GET /api/v1/collections': () => json({ collections: stored }),
    'POST /api/v1/collections': ({ body }) => {
      const input = body as { title: string; visibility: Collection['visibility'] };
      const collection = collectionFixture({ id: 'col_new', title: input.title, visibility: input.visibility, fileCount: 0, sizeBytes: 0 });
      stored = [collectionSummaryFixture({ id: 'col_new', title: input.title, fileCount: 0, sizeBytes: 0 }), ...stored];
      return json({ collection }, 201);
    },
    'DELETE /api/v1/collections/:id': ({ params }) => {
      stored = stored.filter((c) => c.id !== params.id);
      return json({ deleted: true });
    },
    ...extra,
  });
}

const card = (title: string) => screen.getByRole('link', { name: title }).closest('li')!;

describe('collections page', () => {
  it('shows each collection as a card with its cover or a placeholder, counts, size, visibility and last change, linking to it', async () => {
    const collections: CollectionSummary[] = [
      collectionSummaryFixture({
        id: 'col_1',
        title: 'Spring lookbook',
        visibility: 'public',
        coverFileId: 'fi_1',
        coverUrl: 'http://localhost:8080/thumb/abc',
      }),
      collectionSummaryFixture({
        id: 'col_2',
        title: 'Contracts',
        visibility: 'password',
        fileCount: 1,
        sizeBytes: 1_500,
        updatedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      }),
      collectionSummaryFixture({ id: 'col_3', title: 'Team offsite', visibility: 'private' }),
    ];
    collectionsServer({ collections });
    renderApp('/collections');

    expect(await screen.findByRole('heading', { name: '3 collections' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Spring lookbook' })).toHaveAttribute('href', '/collections/col_1');

    const lookbook = card('Spring lookbook');
    expect(lookbook.querySelector('img')).toHaveAttribute('src', 'http://localhost:8080/thumb/abc');
    expect(within(lookbook).getByText('Public')).toBeInTheDocument();
    expect(within(lookbook).getByText('12 files · 48 MB')).toBeInTheDocument();
    expect(within(lookbook).getByText('3 hours ago')).toBeInTheDocument();

    const contracts = card('Contracts');
    expect(contracts.querySelector('img')).toBeNull();
    expect(within(contracts).getByText('Password')).toBeInTheDocument();
    expect(within(contracts).getByText('1 file · 1.5 KB')).toBeInTheDocument();
    expect(within(contracts).getByText('2 days ago')).toBeInTheDocument();
    expect(within(card('Team offsite')).getByText('Private')).toBeInTheDocument();
    expect(within(contracts).getByRole('button', { name: 'Share Contracts' })).toBeInTheDocument();
    expect(within(contracts).getByRole('button', { name: 'Delete Contracts' })).toBeInTheDocument();
  });

  it('explains collections and offers to create the first when there are none', async () => {
    collectionsServer({ collections: [] });
    renderApp('/collections');

    expect(await screen.findByRole('heading', { name: 'No collections yet' })).toBeInTheDocument();
    expect(screen.getByText(/share it with anyone who has the link, behind a password, or only with the guests you invite/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create your first collection' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New collection' })).toBeInTheDocument();
  });

  it('tells a free workspace what collections are and that they need a paid plan, instead of an error', async () => {
    stubFetch({
      ...signedIn('free'),
      'GET /api/v1/collections': apiError(402, 'upgrade_required', 'Collections need a paid plan.'),
    });
    renderApp('/collections');

    expect(await screen.findByRole('heading', { name: 'Collections come with the paid plan' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Collections' })).toBeInTheDocument();
    expect(screen.getByText(/Named sets of files in folders/)).toBeInTheDocument();
    expect(screen.getByText(/only guests you invite by email/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New collection' })).not.toBeInTheDocument();
  });

  it('shows any other failure as an error with a way to try again', async () => {
    stubFetch({ ...signedIn('paid'), 'GET /api/v1/collections': apiError(500, 'internal_error', 'The server failed.') });
    renderApp('/collections');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The server failed.');
  });

  it('creates a collection: a title is required, Password needs a password, then it opens the new collection', async () => {
    const network = collectionsServer({ collections: [] });
    const { user, router } = renderApp('/collections');

    await user.click(await screen.findByRole('button', { name: 'New collection' }));
    const dialog = screen.getByRole('dialog', { name: 'New collection' });
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
    expect(within(dialog).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(within(dialog).queryByLabelText('Collection password')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: 'Password' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }));
    expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription('Give the collection a title.');
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
    expect(within(dialog).getByLabelText('Collection password')).toHaveAccessibleDescription(
      expect.stringContaining('Choose a password for visitors to type.'),
    );

    await user.type(within(dialog).getByLabelText('Title'), 'Wedding');
    await user.type(within(dialog).getByLabelText('Collection password'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }));
    expect(within(dialog).getByLabelText('Collection password')).toHaveAccessibleDescription(expect.stringContaining('Use at least 4 characters.'));
    expect(within(dialog).getByLabelText('Collection password')).toHaveFocus();
    expect(network.requestsTo('POST /api/v1/collections')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Collection password'), 'd');
    await user.type(within(dialog).getByLabelText('Description (optional)'), 'The whole day');
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/collections/col_new'));
    expect(network.requestsTo('POST /api/v1/collections')[0]?.body).toEqual({
      title: 'Wedding',
      description: 'The whole day',
      visibility: 'password',
      password: 'abcd',
    });
  });

  it("shows the server's refusal next to the field it names", async () => {
    collectionsServer({
      collections: [],
      extra: {
        'POST /api/v1/collections': apiError(400, 'invalid_request', 'The request is not valid.', {
          fields: [{ path: 'title', message: 'title must not contain control characters' }],
        }),
      },
    });
    const { user } = renderApp('/collections');
    await user.click(await screen.findByRole('button', { name: 'Create your first collection' }));
    const dialog = screen.getByRole('dialog', { name: 'New collection' });
    await user.type(within(dialog).getByLabelText('Title'), 'Fine');
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }));
    expect(await within(dialog).findByText('Must not contain control characters.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
  });

  it('deletes a collection after confirming, and keeps focus on the page', async () => {
    const network = collectionsServer({
      collections: [collectionSummaryFixture({ id: 'col_1', title: 'Old shoot' }), collectionSummaryFixture({ id: 'col_2', title: 'Keep me' })],
    });
    const { user } = renderApp('/collections');

    await user.click(await screen.findByRole('button', { name: 'Delete Old shoot' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete “Old shoot”?' });
    expect(confirm).toHaveTextContent('Its 12 files, folders and guests are deleted for good');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(network.requestsTo('DELETE /api/v1/collections/col_1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Old shoot' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete collection' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Old shoot' })).not.toBeInTheDocument());
    expect(network.requestsTo('DELETE /api/v1/collections/col_1')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Keep me' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: '1 collection' })).toHaveFocus());
  });

  it('opens the sharing settings from a card', async () => {
    collectionsServer({ extra: { 'GET /api/v1/collections/:id': json({ collection: collectionFixture() }), 'GET /api/v1/me': json({}) } });
    const { user } = renderApp('/collections');
    await user.click(await screen.findByRole('button', { name: 'Share Spring lookbook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share “Spring lookbook”' });
    expect(within(dialog).getByRole('textbox', { name: 'Secret link' })).toHaveValue('http://localhost:8080/c/Sp7kQ2mR8sT1vW3xY7zA0b');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share Spring lookbook' })).toHaveFocus();
  });
});
