import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';
import { axeInBothThemes, expectNoSeriousA11yViolations } from './transfer-support';

/**
 * The address book as an owner keeps it: a CSV from another system imported after a preview that
 * shows its one bad row, a contact found and edited, the whole book exported and imported again
 * without a change; and an address book of 5,000 that stays a page of rows, not 5,000 of them.
 */

function csvFile(name: string, text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-csv-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return { file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const table = (page: Page) => page.getByRole('table', { name: 'Contacts' });
/** Each row's name (on a phone the row header also holds the address, under the name). */
const rowHeaders = (page: Page) => table(page).locator('th[scope=row] > span:first-child');

async function importCsv(page: Page, file: string) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV file').setInputFiles(file);
  return dialog;
}

test('an owner imports a CSV with one bad row, finds and edits a contact, exports the book and imports it again unchanged', async ({ page }) => {
  test.setTimeout(90_000);
  // Outlook's headers, a quoted company with a comma, a phone that looks like a formula, and one bad address.
  const outlook = csvFile(
    'outlook.csv',
    [
      'First Name,Last Name,Company,E-mail Address,Mobile Phone',
      'Ada,Lovelace,"Analytical Engines, Ltd",ada@example.com,+44 20 7946 0958',
      'Grace,Hopper,US Navy,grace@navy.test,',
      'Bad,Row,Nowhere,not-an-address,',
      'Katherine,Johnson,NASA,KJ@nasa.test,',
      'Zoë,Ångström,"=HYPERLINK(""http://evil.test"")",zoe@example.se,',
    ].join('\r\n'),
  );
  try {
    await signUp(page, 'Lovelace & Co');
    await page.getByRole('link', { name: 'Contacts' }).first().click();
    await expect(page.getByRole('heading', { name: 'No contacts yet' })).toBeVisible();

    // The preview names the bad row by its line and writes nothing until asked.
    const dialog = await importCsv(page, outlook.file);
    await expect(dialog.getByText(/ready to import/)).toHaveText('4 contacts are ready to import.');
    await expect(dialog.getByRole('combobox', { name: 'Import “E-mail Address” as' })).toHaveValue('email');
    const errors = dialog.getByRole('group', { name: 'Rows with errors' });
    await expect(errors.getByRole('row')).toHaveCount(2);
    await expect(errors.getByRole('row').nth(1)).toContainText('4not-an-address');
    await expect(errors).toContainText('email must be a valid email address');
    await expectNoSeriousA11yViolations(page, 'the import preview');
    await dialog.getByRole('button', { name: 'Import 4 contacts' }).click();
    await expect(dialog.getByRole('status')).toContainText('4 contacts created');
    await expect(dialog.getByRole('status')).toContainText('1 row with errors skipped');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // In the order the Name column reads ("First Last"), as the browser's language collates it.
    await expect(rowHeaders(page)).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Katherine Johnson', 'Zoë Ångström']);
    await expect(table(page).getByText('=HYPERLINK("http://evil.test")')).toHaveCount(1);

    // Search by part of a company, then by an accent-free spelling.
    const search = page.getByRole('searchbox', { name: 'Search contacts' });
    await search.fill('engines');
    await expect(rowHeaders(page)).toHaveText(['Ada Lovelace']);
    await search.fill('angstrom');
    await expect(rowHeaders(page)).toHaveText(['Zoë Ångström']);
    await search.fill('');
    await expect(rowHeaders(page)).toHaveCount(4);

    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit contact' });
    await edit.getByLabel('Company').fill('Harvard Computation Lab');
    await edit.getByLabel('Phone').fill('+1 617 555 0100');
    await edit.getByLabel('Language of their mail').selectOption({ label: 'Deutsch' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toHaveCount(0);
    await expect(table(page).getByRole('row', { name: /Grace Hopper/ })).toContainText('Harvard Computation Lab');

    await axeInBothThemes(page, 'the contacts page');

    // Export: RFC 4180, formulas neutralised; importing it again changes nothing.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^contacts-lovelace-co-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = path.join(path.dirname(outlook.file), 'exported.csv');
    await download.saveAs(exported);
    const text = fs.readFileSync(exported, 'utf8');
    expect(text.split('\r\n')[0]).toBe('\uFEFFemail,firstName,lastName,company,phone,type,language');
    expect(text).toContain('ada@example.com,Ada,Lovelace,"Analytical Engines, Ltd",\'+44 20 7946 0958,person,\r\n');
    expect(text).toContain('zoe@example.se,Zoë,Ångström,"\'=HYPERLINK(""http://evil.test"")",,person,\r\n');
    expect(text).toContain("grace@navy.test,Grace,Hopper,Harvard Computation Lab,'+1 617 555 0100,person,de\r\n");

    const again = await importCsv(page, exported);
    await expect(again.getByText(/ready to import/)).toHaveText('4 contacts are ready to import.');
    await expect(again.getByRole('group', { name: 'Rows with errors' })).toHaveCount(0);
    await again.getByRole('button', { name: 'Import 4 contacts' }).click();
    await expect(again.getByRole('status')).toContainText('0 contacts created');
    await expect(again.getByRole('status')).toContainText('0 contacts updated');
    await expect(again.getByRole('status')).toContainText('4 contacts already up to date');
    await again.getByRole('button', { name: 'Done' }).click();

    // Delete, after confirming.
    await page.getByRole('button', { name: 'Delete Katherine Johnson' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this contact?' }).getByRole('button', { name: 'Delete contact' }).click();
    await expect(rowHeaders(page)).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Zoë Ångström']);
  } finally {
    outlook.cleanup();
  }
});

test('5,000 contacts: the table renders a screenful of rows, scrolls to the last, and search answers from all of them', async ({ page }) => {
  test.setTimeout(90_000);
  const lines = ['email,firstName,lastName,company'];
  for (let i = 0; i < 5000; i++) lines.push(`person${String(i).padStart(4, '0')}@example.com,Person,Number ${String(i).padStart(4, '0')},Company ${i % 50}`);
  const big = csvFile('big.csv', lines.join('\n'));
  try {
    await signUp(page, 'Big Book');
    await page.goto('/contacts');
    const dialog = await importCsv(page, big.file);
    await expect(dialog.getByText(/ready to import/)).toHaveText('5,000 contacts are ready to import.');
    await dialog.getByRole('button', { name: 'Import 5,000 contacts' }).click();
    await expect(dialog.getByRole('status')).toContainText('5,000 contacts created', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();

    await expect(page.getByText('5,000 contacts')).toBeVisible();
    await expect(table(page)).toHaveAttribute('aria-rowcount', '5001');
    // Only the rows near the screen are in the page.
    const rendered = await rowHeaders(page).count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);

    // Rows are measured as they render, so the page grows a little as it scrolls: scroll to its end until the last row shows.
    const last = table(page).getByRole('rowheader', { name: 'Person Number 4999' });
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return last.isVisible();
      })
      .toBe(true);
    expect(await rowHeaders(page).count()).toBeLessThan(100);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('number 4321');
    await expect(rowHeaders(page)).toHaveText(['Person Number 4321']);
    await expect(page.getByText('1 of 5,000 contacts')).toBeVisible();
  } finally {
    big.cleanup();
  }
});
