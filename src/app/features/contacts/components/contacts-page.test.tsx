import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Contact, ContactInput } from '../../../../contract/contacts';
import { apiError, json, stubFetch } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';
import { contactFixture, signedIn } from '../../../test/fixtures';

const contact = contactFixture;

/** An address book the page's requests read and change, as the API would. */
function contactsServer(initial: Contact[]) {
  let stored = [...initial];
  const fill = (input: ContactInput) => ({ firstName: '', lastName: '', company: '', phone: '', type: 'person', language: '', ...input, email: input.email.toLowerCase() });
  const stub = stubFetch({
    ...signedIn('free'),
    'GET /api/v1/contacts': () => json({ contacts: stored }),
    'POST /api/v1/contacts': ({ body }) => {
      const input = body as ContactInput;
      const existing = stored.find((c) => c.email === input.email.toLowerCase());
      if (existing)
        return apiError(409, 'conflict', 'A contact with this email address already exists in the workspace', {
          reason: 'contact_exists',
          contactId: existing.id,
        });
      const created = contact(input.email, fill(input) as Partial<Contact>);
      stored.push(created);
      return json({ contact: created }, 201);
    },
    'PUT /api/v1/contacts/:id': ({ params, body }) => {
      const replaced = { ...stored.find((c) => c.id === params.id)!, ...fill(body as ContactInput), updatedAt: new Date().toISOString() } as Contact;
      stored = stored.map((c) => (c.id === params.id ? replaced : c));
      return json({ contact: replaced });
    },
    'DELETE /api/v1/contacts/:id': ({ params }) => {
      stored = stored.filter((c) => c.id !== params.id);
      return json({ deleted: true });
    },
    'POST /api/dashboard/contacts/import': ({ body }) => {
      const inputs = (body as { contacts: ContactInput[] }).contacts;
      let created = 0;
      for (const input of inputs) {
        if (stored.some((c) => c.email === input.email)) continue;
        stored.push(contact(input.email, fill(input) as Partial<Contact>));
        created++;
      }
      return json({ created, updated: 0, unchanged: inputs.length - created, contacts: [] });
    },
  });
  return { stub, stored: () => stored };
}

const addressBook = [
  contact('ada@example.com', { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines' }),
  contact('grace@navy.test', { firstName: 'Grace', lastName: 'Hopper', company: 'US Navy', createdBy: { kind: 'key', id: 'key_1', name: 'CRM sync', email: null } }),
  contact('billing@acme.test', { company: 'Acme', type: 'company' }),
];

const table = () => screen.getByRole('table', { name: 'Contacts' });
const rowNames = () =>
  within(table())
    .getAllByRole('rowheader')
    .map((cell) => cell.querySelector('span')!.textContent);

afterEach(() => vi.restoreAllMocks());

describe('contacts page', () => {
  it('lists the address book, finds contacts by name, email or company, filters by type and sorts by column', async () => {
    contactsServer(addressBook);
    const { user } = renderApp('/contacts');
    expect(await screen.findByRole('table', { name: 'Contacts' })).toBeInTheDocument();
    // A company without a person's name goes by its company name.
    expect(rowNames()).toEqual(['Acme', 'Ada Lovelace', 'Grace Hopper']);
    expect(screen.getByText('3 contacts')).toBeInTheDocument();

    const search = screen.getByRole('searchbox', { name: 'Search contacts' });
    await user.type(search, 'engines');
    await waitFor(() => expect(rowNames()).toEqual(['Ada Lovelace']));
    expect(screen.getByText('1 of 3 contacts')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'navy.test');
    await waitFor(() => expect(rowNames()).toEqual(['Grace Hopper']));
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(await screen.findByRole('heading', { name: 'No matching contacts' })).toBeInTheDocument();
    await user.clear(search);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Companies');
    await waitFor(() => expect(rowNames()).toEqual(['Acme']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'All types');

    await user.click(within(table()).getByRole('button', { name: /Company/ }));
    await waitFor(() => expect(rowNames()).toEqual(['Acme', 'Ada Lovelace', 'Grace Hopper']));
    expect(within(table()).getByRole('columnheader', { name: /Company/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(table()).getByRole('button', { name: /Company/ }));
    await waitFor(() => expect(rowNames()).toEqual(['Grace Hopper', 'Ada Lovelace', 'Acme']));
    expect(within(table()).getByRole('columnheader', { name: /Company/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts by name in the order the Name column reads, as the user\'s language orders letters', async () => {
    contactsServer([
      ...addressBook,
      contact('emile@example.fr', { firstName: 'Émile', lastName: 'Zola' }),
      contact('cleo@example.com', {}),
      contact('eva@example.de', { firstName: 'Eva', lastName: 'Braun' }),
    ]);
    const { user } = renderApp('/contacts');
    expect(await screen.findByRole('table', { name: 'Contacts' })).toBeInTheDocument();
    const ascending = ['Acme', 'Ada Lovelace', 'cleo@example.com', 'Émile Zola', 'Eva Braun', 'Grace Hopper'];
    expect(rowNames()).toEqual(ascending);
    expect(within(table()).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(table()).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(rowNames()).toEqual([...ascending].reverse()));
    expect(within(table()).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('adds a contact, saying next to the email field when the address is already taken', async () => {
    const server = contactsServer(addressBook);
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add contact' });

    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription('Enter the contact’s email address.');
    // The contract's rule, in words for a person rather than the API's "email must be …".
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ada-at-example');
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription('Must be a valid email address.');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Email' }));

    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ADA@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await within(dialog).findByText('Another contact already has this address.')).toBeInTheDocument();

    await user.clear(within(dialog).getByRole('textbox', { name: 'Email' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'katherine@nasa.test');
    await user.type(within(dialog).getByRole('textbox', { name: 'First name' }), 'Katherine');
    await user.type(within(dialog).getByRole('textbox', { name: 'Last name' }), 'Johnson');
    // Each language by its own name, the default being the sender's own.
    const language = within(dialog).getByRole('combobox', { name: 'Language of their mail' });
    expect(language).toHaveValue('');
    await user.selectOptions(language, 'Deutsch');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(rowNames()).toContain('Katherine Johnson'));
    expect(server.stored().find((c) => c.email === 'katherine@nasa.test')).toMatchObject({ firstName: 'Katherine', lastName: 'Johnson', type: 'person', language: 'de' });
  });

  it('says in a contact’s details who made it, as the transfer list says who sent a transfer', async () => {
    contactsServer([...addressBook, contact('kay@example.com', { firstName: 'Kay', createdBy: { kind: 'member', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' } })]);
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Edit Grace Hopper' }));
    expect(screen.getByRole('dialog', { name: 'Edit contact' })).toHaveAccessibleDescription('by API key “CRM sync”');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Edit Kay' }));
    expect(screen.getByRole('dialog', { name: 'Edit contact' })).toHaveAccessibleDescription('by you');
    await user.keyboard('{Escape}');
    // Made before teams: no one to name.
    await user.click(screen.getByRole('button', { name: 'Edit Ada Lovelace' }));
    expect(screen.getByRole('dialog', { name: 'Edit contact' })).not.toHaveAccessibleDescription();
  });

  it('edits every field of a contact and deletes one after confirming', async () => {
    const server = contactsServer(addressBook);
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Edit Grace Hopper' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit contact' });
    expect(within(dialog).getByRole('textbox', { name: 'Company' })).toHaveValue('US Navy');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Company' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Company' }), 'Harvard');
    await user.type(within(dialog).getByRole('textbox', { name: 'Phone' }), '+1 617 555 0100');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.stored().find((c) => c.id === 'ct_grace')).toMatchObject({ company: 'Harvard', phone: '+1 617 555 0100', firstName: 'Grace' });

    await user.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete this contact?' });
    expect(confirm).toHaveTextContent('Ada Lovelace (ada@example.com)');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.stored()).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete contact' }));
    await waitFor(() => expect(rowNames()).toEqual(['Acme', 'Grace Hopper']));
    expect(server.stored().map((c) => c.id)).toEqual(['ct_grace', 'ct_billing']);
  });

  it('imports the valid rows of a CSV file after the preview, and reports what it did', async () => {
    const server = contactsServer(addressBook);
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = screen.getByRole('dialog', { name: 'Import contacts' });
    const csv = 'Email,First name,Last name\nkatherine@nasa.test,Katherine,Johnson\nnot-an-address,Nobody,\nada@example.com,Ada,Lovelace\n';
    await user.upload(within(dialog).getByLabelText('CSV file'), new File([csv], 'people.csv', { type: 'text/csv' }));

    expect(await within(dialog).findByText(/ready to import/)).toHaveTextContent('2 contacts are ready to import.');
    expect(within(dialog).getByRole('group', { name: 'Rows with errors' })).toHaveTextContent('not-an-address');
    expect(server.stub.requestsTo('POST /api/dashboard/contacts/import')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Import 2 contacts' }));
    expect(server.stub.requestsTo('POST /api/dashboard/contacts/import').map((r) => r.body)).toEqual([
      {
        contacts: [
          { email: 'katherine@nasa.test', firstName: 'Katherine', lastName: 'Johnson', company: '', phone: '', type: 'person', language: '' },
          { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: '', phone: '', type: 'person', language: '' },
        ],
      },
    ]);
    const status = await within(dialog).findByRole('status');
    expect(status).toHaveTextContent('1 contact created');
    expect(status).toHaveTextContent('1 contact already up to date');
    expect(status).toHaveTextContent('1 row with errors skipped');
    expect(server.stored().map((c) => c.email)).toContain('katherine@nasa.test');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(rowNames()).toContain('Katherine Johnson'));
  });

  it('exports the address book as a CSV file', async () => {
    contactsServer(addressBook);
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:contacts';
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(click).toHaveBeenCalledOnce();
    const text = await created[0]!.text();
    expect(text).toContain('email,firstName,lastName,company,phone,type,language');
    expect(text).toContain('ada@example.com,Ada,Lovelace,Analytical Engines,,person,');
  });

  it('invites a new workspace to add or import its first contacts', async () => {
    contactsServer([]);
    renderApp('/contacts');
    expect(await screen.findByRole('heading', { name: 'No contacts yet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import CSV' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});
