import { QueryClient, QueryClientProvider, useSuspenseQuery } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { Collection, Guest } from '../../../../../contract/collections';
import { apiError, json, stubFetch, type StubHandler } from '../../../../test/fetch-stub';
import { account } from '../../../../test/fixtures';
import { collectionQueryOptions } from '../../api/get-collection';
import { collectionKeys } from '../../api/query-keys';
import { collectionFixture, guestFixture } from '../../testing/sharing-fixtures';
import { ShareCollectionDialog } from './share-dialog';

const token = { accessToken: 'tok_dashboard', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() };

/** A server holding one collection and its guests, which the dialog's requests change. */
function sharingServer({
  collection = collectionFixture(),
  guests = [] as Guest[],
  customDomain = null as string | null,
  extra = {} as Record<string, StubHandler>,
} = {}) {
  let stored = collection;
  let storedGuests = [...guests];
  return stubFetch({
    'POST /api/dashboard/token': json(token),
    'GET /api/v1/me': json(account({ workspace: { ...account().workspace, customDomain } })),
    'GET /api/v1/collections/:id': () => json({ collection: stored }),
    'PATCH /api/v1/collections/:id': ({ body }) => {
      const input = body as Partial<Collection> & { password?: string };
      if (input.visibility === 'password' && !input.password && stored.visibility !== 'password') {
        return apiError(400, 'invalid_request', 'The request is not valid.', {
          fields: [{ path: 'password', message: 'password is required for visibility password' }],
        });
      }
      const { password: _password, ...changes } = input;
      stored = { ...stored, ...changes };
      return json({ collection: stored });
    },
    'GET /api/v1/collections/:id/guests': () => json({ guests: storedGuests }),
    'GET /api/v1/collections/:id/folders': json({
      folders: [
        { id: 'fo_inbox', name: 'Inbox', path: 'Inbox', parentId: null, depth: 0 },
        { id: 'fo_final', name: 'Final', path: 'Final', parentId: null, depth: 0 },
      ],
    }),
    'PATCH /api/v1/collections/:id/guests/:guestId': ({ params, body }) => {
      storedGuests = storedGuests.map((g) => (g.id === params.guestId ? { ...g, ...(body as Partial<Guest>), uploadFolderId: (body as Partial<Guest>).uploadFolderId ?? null } : g));
      return json({ guest: storedGuests.find((g) => g.id === params.guestId) });
    },
    // The guests field suggests from the address book.
    'GET /api/v1/contacts': json({ contacts: [] }),
    'POST /api/v1/collections/:id/guests': ({ body }) => {
      const { emails } = body as { emails: string[] };
      storedGuests = [...storedGuests, ...emails.map((email, i) => guestFixture({ id: `gu_new${i}`, email, invitedAt: new Date().toISOString() }))];
      return json({ invited: emails });
    },
    'DELETE /api/v1/collections/:id/guests/:guestId': ({ params }) => {
      storedGuests = storedGuests.filter((g) => g.id !== params.guestId);
      return json({ deleted: true });
    },
    ...extra,
  });
}

/** The dialog as a page uses it: over the cached collection, opened from a button. */
function SharePage({ id }: { id: string }) {
  const { data: collection } = useSuspenseQuery(collectionQueryOptions(id));
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Share
      </button>
      <ShareCollectionDialog collection={collection} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function renderDialog(collection: Collection = collectionFixture()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(collectionKeys.detail(collection.id), collection);
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <SharePage id={collection.id} />
      </Suspense>
    </QueryClientProvider>,
  );
  return { user, dialog: screen.getByRole('dialog', { name: `Share “${collection.title}”` }) };
}

describe('share dialog', () => {
  it('switches to Password: an empty password is caught at the field before anything is sent, then it saves with one', async () => {
    const network = sharingServer();
    const { user, dialog } = renderDialog();

    expect(within(dialog).getByRole('radio', { name: 'Private' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Save visibility' })).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: 'Password' }));
    const field = within(dialog).getByLabelText('Collection password');
    await user.click(within(dialog).getByRole('button', { name: 'Save visibility' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Choose a password for visitors to type.'));
    expect(field).not.toHaveAccessibleDescription(expect.stringMatching(/password is required|visibility password/));
    expect(field).toHaveFocus();
    expect(network.requestsTo('PATCH /api/v1/collections/col_1')).toHaveLength(0);

    await user.type(field, 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Save visibility' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Use at least 4 characters.'));
    expect(network.requestsTo('PATCH /api/v1/collections/col_1')).toHaveLength(0);

    await user.type(field, 'd');
    await user.click(within(dialog).getByRole('button', { name: 'Save visibility' }));
    expect(await within(dialog).findByText(/^Saved\./)).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/collections/col_1')[0]?.body).toEqual({ visibility: 'password', password: 'abcd' });
    // Now it has a password: the field offers to replace it, and is not needed.
    expect(within(dialog).getByLabelText('New password')).toHaveValue('');
    expect(within(dialog).getByText(/Anyone who has this link and the password/)).toBeInTheDocument();
  });

  it('makes a password collection public without sending a password', async () => {
    const network = sharingServer({ collection: collectionFixture({ visibility: 'password' }) });
    const { user, dialog } = renderDialog(collectionFixture({ visibility: 'password' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Public' }));
    expect(within(dialog).queryByLabelText('New password')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save visibility' }));
    expect(await within(dialog).findByText(/^Saved\./)).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/collections/col_1')[0]?.body).toEqual({ visibility: 'public' });
    expect(within(dialog).getByText(/Anyone who has this link can open the collection/)).toBeInTheDocument();
  });

  it('shows the secret link to copy, its QR code, and who it lets in', async () => {
    sharingServer();
    const { user, dialog } = renderDialog();
    const link = within(dialog).getByRole('textbox', { name: 'Secret link' });
    expect(link).toHaveValue('http://localhost:8080/c/Sp7kQ2mR8sT1vW3xY7zA0b');
    expect(link).toHaveAccessibleDescription(expect.stringContaining('Only invited guests can open the collection'));
    expect(within(dialog).getByRole('img', { name: 'QR code of the link to Spring lookbook' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('http://localhost:8080/c/Sp7kQ2mR8sT1vW3xY7zA0b');
  });

  it('keeps the custom-link switch off and says how to get a domain when the workspace has none', async () => {
    sharingServer({ customDomain: null });
    const { dialog } = renderDialog();
    const toggle = await within(dialog).findByRole('switch', { name: 'Custom link' });
    expect(toggle).toBeDisabled();
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(expect.stringContaining('npm run admin -- domain set'));
  });

  it('turns the custom link on and shows the address it gives on the workspace domain', async () => {
    const network = sharingServer({ customDomain: 'files.example.com' });
    const { user, dialog } = renderDialog();
    const toggle = await within(dialog).findByRole('switch', { name: 'Custom link' });
    expect(toggle).toHaveAccessibleDescription(expect.stringContaining('https://files.example.com/Sp7kQ2mR8sT1vW3xY7zA0b'));
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(network.requestsTo('PATCH /api/v1/collections/col_1')[0]?.body).toEqual({ customLink: true });
    expect(within(dialog).getByRole('textbox', { name: 'Custom link address' })).toHaveValue('https://files.example.com/Sp7kQ2mR8sT1vW3xY7zA0b');
  });

  it('lists guests with when they were invited and last came', async () => {
    sharingServer({
      guests: [guestFixture(), guestFixture({ id: 'gu_2', email: 'grace@example.org', lastVisitAt: new Date(Date.now() - 5 * 60_000).toISOString() })],
    });
    const { dialog } = renderDialog();
    const list = await within(dialog).findByRole('list', { name: 'Guests' });
    const [ada, grace] = within(list).getAllByRole('listitem');
    expect(ada).toHaveTextContent('ada@example.com');
    expect(ada).toHaveTextContent('Invited yesterday · Last visit never');
    expect(grace).toHaveTextContent('Last visit 5 minutes ago');
  });

  it('flags invalid addresses as they are typed and sends nothing until they are fixed; repeats go once', async () => {
    const network = sharingServer();
    const { user, dialog } = renderDialog();
    const field = within(dialog).getByLabelText('Invite guests');

    await user.type(field, 'Ada@Example.com, grace@example, ada@example.com lin');
    const addresses = within(dialog).getByRole('list', { name: 'Addresses to invite' });
    // The word still being typed is not judged yet.
    expect(
      within(addresses)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['ada@example.com', 'grace@example – not valid']);
    expect(field).toHaveAccessibleDescription(expect.stringContaining('“grace@example” is not a valid email address.'));
    expect(within(dialog).getByText('1 address ready, 1 repeat left out.')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(network.requestsTo('POST /api/v1/collections/col_1/guests')).toHaveLength(0);
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription(expect.stringContaining('2 addresses are not valid: “grace@example”, “lin”.'));

    await user.click(within(addresses).getByRole('button', { name: 'Remove grace@example' }));
    await user.clear(field);
    await user.type(field, 'grace@example.org; ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('Invited ada@example.com, grace@example.org.')).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/collections/col_1/guests')[0]?.body).toEqual({ emails: ['ada@example.com', 'grace@example.org'] });
    expect(field).toHaveValue('');
    const guests = await within(dialog).findByRole('list', { name: 'Guests' });
    expect(within(guests).getAllByRole('listitem')).toHaveLength(2);
  });

  it('invites a guest who may add files to one folder, and changes what another may do', async () => {
    const network = sharingServer({ guests: [guestFixture()] });
    const { user, dialog } = renderDialog();
    await user.type(within(dialog).getByLabelText('Invite guests'), 'grace@example.org ');
    const can = within(dialog).getByRole('combobox', { name: 'They can' });
    expect(await within(can).findByRole('option', { name: 'Can also add files to Inbox' })).toBeInTheDocument();
    await user.selectOptions(can, 'Can also add files to Inbox');
    await user.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('Invited grace@example.org.')).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/collections/col_1/guests')[0]?.body).toEqual({ emails: ['grace@example.org'], role: 'contributor', uploadFolderId: 'fo_inbox' });

    const ada = within(dialog).getByRole('combobox', { name: 'What ada@example.com can do' });
    expect(ada).toHaveValue('viewer');
    await user.selectOptions(ada, 'Can also add files, anywhere');
    await waitFor(() => expect(network.requestsTo('PATCH /api/v1/collections/col_1/guests/gu_1')).toHaveLength(1));
    expect(network.requestsTo('PATCH /api/v1/collections/col_1/guests/gu_1')[0]!.body).toEqual({ role: 'contributor', uploadFolderId: null });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'What ada@example.com can do' })).toHaveValue('contributor:'));
  });

  it('invites nobody on Enter: Enter finishes the typed address into a chip, and only Send invites sends', async () => {
    const network = sharingServer();
    const { user, dialog } = renderDialog();
    const field = within(dialog).getByLabelText('Invite guests');
    await user.type(field, 'ada@example.com{Enter}{Enter}');
    const addresses = within(dialog).getByRole('list', { name: 'Addresses to invite' });
    expect(within(addresses).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['ada@example.com']);
    expect(network.requestsTo('POST /api/v1/collections/col_1/guests')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(await within(dialog).findByText('Invited ada@example.com.')).toBeInTheDocument();
  });

  it('refuses more than 25 addresses at once', async () => {
    const network = sharingServer();
    const { user, dialog } = renderDialog();
    const many = Array.from({ length: 26 }, (_, i) => `guest${i}@example.com`).join(' ');
    const field = within(dialog).getByLabelText('Invite guests');
    await user.click(field);
    await user.paste(many);
    await user.click(within(dialog).getByRole('button', { name: 'Send invites' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('At most 25 addresses at once; this is 26.'));
    expect(network.requestsTo('POST /api/v1/collections/col_1/guests')).toHaveLength(0);
  });

  it('removes a guest after confirming, and moves focus to the guests heading', async () => {
    const network = sharingServer({ guests: [guestFixture(), guestFixture({ id: 'gu_2', email: 'grace@example.org' })] });
    const { user, dialog } = renderDialog();

    await user.click(await within(dialog).findByRole('button', { name: 'Remove ada@example.com' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove ada@example.com?' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Remove guest' }));

    await waitFor(() => expect(within(dialog).queryByText('ada@example.com')).not.toBeInTheDocument());
    expect(network.requestsTo('DELETE /api/v1/collections/col_1/guests/gu_1')).toHaveLength(1);
    expect(within(dialog).getByText('grace@example.org')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('heading', { name: 'Guests' })).toHaveFocus());
  });

  it('keeps focus inside while open, closes on Escape and gives focus back', async () => {
    sharingServer();
    const { user, dialog } = renderDialog();
    expect(dialog).toHaveFocus();
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();
  });
});
