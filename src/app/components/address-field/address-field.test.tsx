import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type FormEvent } from 'react';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../contract/contacts';
import { apiError, json, stubFetch, type StubHandler } from '../../test/fetch-stub';
import { AddressField } from './address-field';
import { contactFixture } from '../../test/fixtures';

const contact = (overrides: Partial<Contact>) => contactFixture(overrides.email ?? 'someone@example.com', overrides);

const ada = contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@engines.example', company: 'Analytical Engines' });
const grace = contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', company: 'US Navy' });
const adair = contact({ firstName: 'Shirin', lastName: 'Adair', email: 'shirin@example.org' });

/** The address book behind GET /api/v1/contacts; POST adds to it, or answers `create` when given. */
function contactsServer(contacts: Contact[], create?: StubHandler) {
  const stored = [...contacts];
  return stubFetch({
    'POST /api/dashboard/token': json({ accessToken: 'tok_dashboard', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
    'GET /api/v1/contacts': () => json({ contacts: stored }),
    'POST /api/v1/contacts':
      create ??
      (({ body }) => {
        const added = contact({ email: (body as { email: string }).email });
        stored.push(added);
        return json({ contact: added }, 201);
      }),
  });
}

/** The field in a form, as the recipients and guests forms hold it: the text in state, and a count of submits; a surrounding Escape is counted too. */
function renderField(initial = '') {
  const submitted: string[] = [];
  const escapes: number[] = [];
  function Form() {
    const [text, setText] = useState(initial);
    return (
      // The dialog a field sits in closes on Escape; this stands for it.
      <div onKeyDown={(event) => event.key === 'Escape' && escapes.push(1)}>
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            submitted.push(text);
          }}
        >
          <AddressField label="Recipients" listLabel="Will be emailed" value={text} onChange={setText} hint="Names or addresses." />
          <button type="submit">Send</button>
          <output data-testid="text">{text}</output>
        </form>
      </div>
    );
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <Form />
    </QueryClientProvider>,
  );
  return { user, submitted, escapes, field: screen.getByRole('combobox', { name: 'Recipients' }), text: () => screen.getByTestId('text').textContent };
}

const chipTexts = () =>
  within(screen.getByRole('list', { name: 'Will be emailed' }))
    .getAllByRole('listitem')
    .map((chip) => chip.textContent);

describe('AddressField', () => {
  it('suggests contacts whose name, email or company holds what is typed, the matching part emphasised', async () => {
    contactsServer([ada, grace, adair]);
    const { user, field } = renderField();
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(field).toHaveAttribute('aria-autocomplete', 'list');
    expect(field).toHaveAccessibleDescription('Names or addresses.');

    await user.type(field, 'ad');
    const listbox = await screen.findByRole('listbox', { name: 'Suggested contacts' });
    expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(field).toHaveAttribute('aria-controls', listbox.id);
    expect(field).not.toHaveAttribute('aria-activedescendant');
    const options = within(listbox).getAllByRole('option');
    // A name starting with the text comes first, then one that has it inside a word.
    expect(options.map((option) => option.textContent)).toEqual(['Ada Lovelace ada@engines.example · Analytical Engines', 'Shirin Adair shirin@example.org']);
    expect(options[0]!.querySelector('mark')).toHaveTextContent(/^Ad$/);
    expect(screen.getByText(/2 contacts match/)).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'navy');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Grace Hopper grace@navy.example · US Navy']);
  });

  it('moves through the options with the arrows, wrapping, and picks with Enter without submitting the form', async () => {
    contactsServer([ada, grace, adair]);
    const { user, field, submitted, text } = renderField();
    await user.type(field, 'ad');
    const [first, second] = await screen.findAllByRole('option');

    await user.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', first!.id);
    expect(first).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', second!.id);
    await user.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', first!.id);
    await user.keyboard('{ArrowUp}');
    expect(field).toHaveAttribute('aria-activedescendant', second!.id);

    await user.keyboard('{Enter}');
    expect(submitted).toEqual([]);
    expect(text()).toBe('shirin@example.org, ');
    expect(chipTexts()).toEqual(['Shirin Adair shirin@example.org']);
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(field).not.toHaveAttribute('aria-activedescendant');

    // With the list closed and nothing typed, Enter still sends nothing: only the Send button does.
    await user.keyboard('{Enter}');
    expect(submitted).toEqual([]);
  });

  it('finishes a typed address into a chip on Enter, as a comma does, and never submits the form', async () => {
    contactsServer([]);
    const { user, field, submitted, text } = renderField();
    await user.type(field, 'lin@example.com{Enter}');
    expect(chipTexts()).toEqual(['lin@example.com']);
    expect(text()).toBe('lin@example.com, ');
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    await user.type(field, 'not-an-address{Enter}{Enter}');
    expect(chipTexts()).toEqual(['lin@example.com', 'not-an-address – not valid']);
    expect(submitted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(submitted).toEqual(['lin@example.com, not-an-address, ']);
  });

  it('picks the highlighted option with Tab, and otherwise lets Tab leave the field', async () => {
    contactsServer([ada, grace]);
    const { user, field, text } = renderField();
    await user.type(field, 'gra');
    await screen.findByRole('option');
    await user.keyboard('{ArrowDown}{Tab}');
    expect(text()).toBe('grace@navy.example, ');
    expect(field).toHaveFocus();

    await user.type(field, 'ada');
    await screen.findByRole('option');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(text()).toBe('grace@navy.example, ada');
  });

  it('picks an option with a click, keeping focus in the field', async () => {
    contactsServer([ada, grace]);
    const { user, field, text } = renderField();
    await user.type(field, 'hop');
    await user.click(await screen.findByRole('option'));
    expect(text()).toBe('grace@navy.example, ');
    expect(field).toHaveFocus();
  });

  it('closes the list on Escape, and lets a second Escape reach the dialog around it', async () => {
    contactsServer([ada]);
    const { user, field, escapes } = renderField();
    await user.type(field, 'ada');
    await screen.findByRole('option');
    await user.keyboard('{Escape}');
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(field).toHaveValue('ada');
    expect(escapes).toHaveLength(0);

    await user.keyboard('{Escape}');
    expect(escapes).toHaveLength(1);

    // The arrows open it again.
    await user.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', screen.getByRole('option').id);
  });

  it('does not suggest an address already in the field', async () => {
    contactsServer([ada, adair]);
    const { user, field } = renderField('ada@engines.example, ');
    await user.type(field, 'ad');
    expect(await screen.findAllByRole('option')).toHaveLength(1);
    expect(screen.getByRole('option')).toHaveTextContent('Shirin Adair');
  });

  it('shows names as text, never as markup', async () => {
    const hostile = contact({ firstName: '<img src=x onerror=alert(1)>', lastName: 'Mallory', email: 'mallory@example.org', company: '<b>Evil</b>' });
    contactsServer([hostile]);
    const { user, field } = renderField();
    await user.type(field, 'mallory');
    const option = await screen.findByRole('option');
    expect(option).toHaveTextContent('<img src=x onerror=alert(1)> Mallory mallory@example.org · <b>Evil</b>');
    expect(option.querySelector('img, b')).toBeNull();
    await user.keyboard('{ArrowDown}{Enter}');
    const chip = within(screen.getByRole('list', { name: 'Will be emailed' })).getByRole('listitem');
    expect(chip).toHaveTextContent('<img src=x onerror=alert(1)> Mallory mallory@example.org');
    expect(chip.querySelector('img')).toBeNull();
  });

  it('makes every address of a pasted list a chip, new lines included, and marks invalid ones in words', async () => {
    contactsServer([ada]);
    const { user, field, text } = renderField();
    await user.click(field);
    await user.paste('lin@example.org,\nGrace@Example.org; oops grace@example.org');
    expect(chipTexts()).toEqual(['lin@example.org', 'grace@example.org', 'oops – not valid']);
    expect(field).toHaveValue('');
    expect(text()).toBe('lin@example.org,\nGrace@Example.org; oops grace@example.org, ');
    expect(screen.queryByRole('button', { name: 'Save oops as contact' })).not.toBeInTheDocument();

    // One address pasted is typed in, to be finished or looked up like any other.
    await user.paste('ada');
    expect(field).toHaveValue('ada');
    expect(await screen.findByRole('option')).toHaveTextContent('Ada Lovelace');
  });

  it('finishes an address with a separator, and Backspace in the empty field removes the last chip', async () => {
    contactsServer([]);
    const { user, field, text } = renderField();
    await user.type(field, 'lin@example.org grace@example.org,');
    expect(chipTexts()).toEqual(['lin@example.org', 'grace@example.org']);
    await user.type(field, 'x{Backspace}');
    expect(chipTexts()).toHaveLength(2);
    await user.keyboard('{Backspace}');
    expect(chipTexts()).toEqual(['lin@example.org']);
    expect(field).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Remove lin@example.org' }));
    expect(screen.queryByRole('list', { name: 'Will be emailed' })).not.toBeInTheDocument();
    expect(text()).toBe('');
    expect(field).toHaveFocus();
  });

  it('saves an address that is not a contact with one click, then shows it as a contact', async () => {
    const network = contactsServer([ada]);
    const { user, field } = renderField('ada@engines.example, lin@example.org, ');
    const save = await screen.findByRole('button', { name: 'Save lin@example.org as contact' });
    // A known contact has its name on the chip and nothing to save.
    expect(chipTexts()[0]).toBe('Ada Lovelace ada@engines.example');
    expect(screen.queryByRole('button', { name: 'Save ada@engines.example as contact' })).not.toBeInTheDocument();

    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save lin@example.org as contact' })).not.toBeInTheDocument());
    expect(network.requestsTo('POST /api/v1/contacts').map((request) => request.body)).toEqual([{ email: 'lin@example.org' }]);
    const chip = within(screen.getByRole('list', { name: 'Will be emailed' })).getAllByRole('listitem')[1]!;
    expect(within(chip).getByRole('img', { name: 'Contact' })).toBeInTheDocument();
    expect(chip).toHaveTextContent(/^lin@example\.org$/);
    expect(screen.getByText('Saved lin@example.org as a contact.')).toBeInTheDocument();
    expect(field).toHaveFocus();
  });

  it('counts an address saved elsewhere meanwhile (409) as saved, and shows any other refusal beside the field', async () => {
    let answer = apiError(409, 'conflict', 'A contact with this email address already exists in the workspace', { reason: 'contact_exists' });
    const network = contactsServer([], () => answer);
    const { user } = renderField('lin@example.org, grace@example.org, ');
    await user.click(await screen.findByRole('button', { name: 'Save lin@example.org as contact' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save lin@example.org as contact' })).not.toBeInTheDocument());
    // The list is fetched again: the contact was made elsewhere.
    await waitFor(() => expect(network.requestsTo('GET /api/v1/contacts')).toHaveLength(2));

    answer = apiError(503, 'unavailable', 'The service is briefly unavailable.');
    await user.click(screen.getByRole('button', { name: 'Save grace@example.org as contact' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not save grace@example.org as a contact: The service is briefly unavailable.');
    expect(screen.getByRole('button', { name: 'Save grace@example.org as contact' })).toBeEnabled();
  });

  it('offers no saving while the address book is unknown', async () => {
    stubFetch({
      'POST /api/dashboard/token': json({ accessToken: 'tok_dashboard', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
      'GET /api/v1/contacts': apiError(500, 'internal', 'Something broke.'),
    });
    const { user, field } = renderField('lin@example.org, ');
    await user.type(field, 'li');
    expect(chipTexts()).toEqual(['lin@example.org']);
    expect(screen.queryByRole('button', { name: /as contact/ })).not.toBeInTheDocument();
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });
});
