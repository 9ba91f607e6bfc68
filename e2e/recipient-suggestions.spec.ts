import { expect, test, type Page } from '@playwright/test';
import { createCollection } from './collection-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { addFiles, expectNoSeriousA11yViolations, expectUploadsFinished, sendButton } from './transfer-support';

/**
 * Address fields suggest the workspace's contacts as the owner types: recipients are picked by
 * part of a name with the keyboard alone, and an address that is not a contact yet is saved as one
 * from the chip it makes.
 */

interface ContactBody {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** A bearer token for /api/v1, traded for the page's session as the dashboard does. */
async function apiHeaders(page: Page) {
  const response = await page.request.post('/api/dashboard/token');
  expect(response.status()).toBe(200);
  const { accessToken } = (await response.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

async function listContacts(page: Page): Promise<ContactBody[]> {
  const response = await page.request.get('/api/v1/contacts', { headers: await apiHeaders(page) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { contacts: ContactBody[] }).contacts;
}

test('an owner picks two recipients from the contacts by typing part of their names, with the keyboard alone', async ({ page }) => {
  test.setTimeout(90_000);
  const ada = 'ada.lovelace@example.test';
  const lin = 'lin@example.test';
  const { files, cleanup } = makeFiles({ 'notes.txt': 4_000 });
  try {
    await signUp(page);
    const headers = await apiHeaders(page);
    for (const contact of [
      { firstName: 'Ada', lastName: 'Lovelace', email: ada, company: 'Analytical Engines' },
      { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test', company: 'US Navy' },
      { firstName: 'Lin', lastName: 'Ødegård', email: lin, company: 'Fjord Films' },
    ]) {
      const created = await page.request.post('/api/v1/contacts', { headers, data: contact });
      expect(created.status()).toBe(201);
    }

    await page.goto('/transfers/new');
    await expect(page.getByRole('heading', { name: 'New transfer', level: 1 })).toBeVisible();
    await addFiles(page, [files['notes.txt']!.path]);
    await expectUploadsFinished(page);

    // From the field before it, Tab reaches the recipients.
    await page.getByLabel('Message').focus();
    await page.keyboard.press('Tab');
    const recipients = page.getByRole('combobox', { name: 'Recipients' });
    await expect(recipients).toBeFocused();

    await page.keyboard.type('lovel');
    const suggestions = page.getByRole('listbox', { name: 'Suggested contacts' });
    await expect(suggestions.getByRole('option')).toHaveText([/^Ada Lovelace/]);
    await expect(recipients).toHaveAttribute('aria-expanded', 'true');
    await expectNoSeriousA11yViolations(page, 'the recipients field suggesting a contact');
    await page.keyboard.press('ArrowDown');
    await expect(recipients).toHaveAttribute('aria-activedescendant', (await suggestions.getByRole('option').getAttribute('id'))!);
    await page.keyboard.press('Enter');

    await page.keyboard.type('lin');
    await expect(suggestions.getByRole('option')).toHaveText([/^Lin Ødegård/]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(suggestions).toBeHidden();
    await expect(recipients).toBeFocused();
    await expect(recipients).toHaveValue('');
    await expect(page.getByRole('list', { name: 'Will be emailed' }).getByRole('listitem')).toHaveText([`Ada Lovelace ${ada}`, `Lin Ødegård ${lin}`]);

    // With the list closed and nothing typed, Enter sends nothing: only the Send button does.
    await page.keyboard.press('Enter');
    await expect(recipients).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toHaveCount(0);
    await sendButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible();
    const transferId = new URL(page.url()).pathname.split('/').at(-1)!;
    const transfer = await page.request.get(`/api/v1/transfers/${transferId}`, { headers: await apiHeaders(page) });
    expect(transfer.status()).toBe(200);
    expect(((await transfer.json()) as { recipients: string[] }).recipients).toEqual([ada, lin]);
  } finally {
    cleanup();
  }
});

test('an owner saves a guest address typed in the share dialog as a contact with one click', async ({ page }) => {
  const title = 'Press kit';
  const guest = 'new.guest@example.test';
  await signUp(page);
  await makeWorkspacePaid(page);
  await createCollection(page, { title, visibility: 'Private' });

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const guests = page.getByRole('dialog', { name: `Share “${title}”` }).getByRole('region', { name: 'Guests' });
  await guests.getByLabel('Invite guests').pressSequentially(`${guest},`);
  const chips = guests.getByRole('list', { name: 'Addresses to invite' });
  await expect(chips.getByRole('listitem')).toHaveText([guest]);

  await chips.getByRole('button', { name: `Save ${guest} as contact` }).click();
  await expect(chips.getByRole('button', { name: `Save ${guest} as contact` })).toHaveCount(0);
  await expect(chips.getByRole('listitem').getByRole('img', { name: 'Contact' })).toBeVisible();
  await expect.poll(async () => (await listContacts(page)).map((contact) => contact.email)).toEqual([guest]);

  // The new contact is suggested from then on.
  await guests.getByRole('button', { name: `Remove ${guest}` }).click();
  await page.keyboard.type('new.g');
  await expect(guests.getByRole('listbox', { name: 'Suggested contacts' }).getByRole('option')).toHaveText([guest]);
});
