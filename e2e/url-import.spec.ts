import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { addFromUrl, startOrigin } from './origin-support';
import { signUp } from './support';
import { axeInBothThemes, download, expectNoSeriousA11yViolations, listMail, personalLinks, sendButton } from './transfer-support';
import { crcHex } from './upload-support';

async function openNewTransfer(page: Page) {
  await page.goto('/transfers');
  await page.getByRole('link', { name: 'New transfer' }).click();
  await expect(page.getByRole('heading', { name: 'New transfer', level: 1 })).toBeVisible();
}

test('an owner adds a file from a URL, sends while it imports, and the recipient downloads it once it is in', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const bytes = randomBytes(3 * 1024 * 1024 + 123);
  const origin = await startOrigin(bytes);
  const ada = 'ada@example.test';
  try {
    await signUp(page);
    await openNewTransfer(page);

    await page.getByRole('button', { name: 'Add from URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from URL' });
    await expect(dialog.getByLabel('File URL')).toBeFocused();
    // Another scheme is refused as it is typed.
    await dialog.getByLabel('File URL').fill('ftp://127.0.0.1/footage.bin');
    await expect(dialog.getByLabel('File URL')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel('File URL')).toHaveAccessibleDescription(/Use an https:\/\/ address\./);
    await expectNoSeriousA11yViolations(page, 'the Add from URL dialog');
    await dialog.getByLabel('File URL').fill(origin.url('/footage.bin'));
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog).toBeHidden();

    // The service fetches it: the origin said how large it is, and holds the bytes back for now.
    const imports = page.getByRole('list', { name: 'Files from URLs' });
    const bar = imports.getByRole('progressbar', { name: 'Importing footage.bin' });
    await expect(bar).toHaveAttribute('aria-valuenow', '0', { timeout: 20_000 });
    await expect(bar).toHaveAttribute('aria-valuetext', /of 3\.1 MB$/);
    await expect(imports).toContainText(`From ${origin.url('/footage.bin')}`);
    const form = page.getByRole('form', { name: 'Transfer details' });
    await expect(form).toContainText('1 file is still being imported from a URL: the transfer can be sent now');
    // After a reload the draft and its import are found again, in both themes.
    await axeInBothThemes(page, 'the new-transfer page with an import running');
    await expect(imports.getByRole('progressbar', { name: 'Importing footage.bin' })).toBeVisible();

    await page.getByLabel('Title').fill('Raw footage');
    await page.getByLabel('Recipients').fill(ada);
    await sendButton(page).click();

    // Sent while importing: the file is listed as importing, and nobody is mailed yet.
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible();
    const files = page.getByRole('region', { name: 'Files', exact: true });
    await expect(files).toContainText('1 file is still being imported from a URL');
    const row = files.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'footage.bin', exact: true }) });
    await expect(row.getByRole('cell').last()).toContainText('Importing');
    expect((await listMail(page)).filter((m) => m.tag === 'transfer.sent')).toEqual([]);
    // Not sent yet: the sender's page says when it will be, and its link says the files are still arriving.
    await expect(page.getByRole('definition').filter({ hasText: 'When its last URL import lands' })).toBeVisible();
    const shared = await page.getByLabel('Link to share').inputValue();
    const early = await browser.newContext();
    const visitor = await early.newPage();
    try {
      await visitor.goto(shared);
      await expect(visitor.getByRole('heading', { name: 'The files are still arriving', level: 1 })).toBeVisible();
      await expect(visitor.getByRole('link', { name: /download/i })).toHaveCount(0);

      // The bytes arrive: the page follows the import until it is complete, and the recipient is mailed.
      origin.release();
      // The early visitor's page asks again by itself and shows the file once it is in.
      await expect(visitor.getByRole('link', { name: 'Download footage.bin', exact: true })).toBeVisible({ timeout: 40_000 });
    } finally {
      await early.close();
    }
    await expect(row.getByRole('cell').last()).toHaveText('Complete', { timeout: 30_000 });
    await expect(row.getByRole('cell').nth(4)).toHaveText(crcHex(bytes));
    const links = await personalLinks(page, [ada]);

    const adaContext = await browser.newContext();
    try {
      const recipient = await adaContext.newPage();
      await recipient.goto(links[ada]!);
      await expect(recipient.getByRole('heading', { name: 'Raw footage', level: 1 })).toBeVisible();
      const fileList = recipient.getByRole('region', { name: 'Files', exact: true });
      await expect(fileList.getByRole('listitem')).toHaveCount(1);
      const got = await download(recipient, recipient.getByRole('link', { name: 'Download footage.bin', exact: true }));
      expect(got.bytes.length).toBe(bytes.length);
      expect(crcHex(got.bytes)).toBe(crcHex(bytes));
      expect(got.bytes.equals(bytes)).toBe(true);
    } finally {
      await adaContext.close();
    }
  } finally {
    origin.release();
    await origin.close();
  }
});

test('an address the origin does not have fails with a clear reason, and the failed import can be removed', async ({ page }) => {
  const origin = await startOrigin(Buffer.from('unused'));
  try {
    await signUp(page);
    await openNewTransfer(page);
    await addFromUrl(page, origin.url('/missing.bin'));

    const imports = page.getByRole('list', { name: 'Files from URLs' });
    const remove = imports.getByRole('button', { name: 'Remove missing.bin' });
    await expect(remove).toBeVisible({ timeout: 20_000 });
    await expect(imports).toContainText('Import failed');
    await expect(remove).toHaveAccessibleDescription(/answered 404/);
    await expect(sendButton(page)).toBeDisabled();
    await expect(sendButton(page)).toHaveAccessibleDescription('An import failed: remove it (you can add the address again) to send.');
    await expectNoSeriousA11yViolations(page, 'the new-transfer page with a failed import');

    await remove.click();
    await expect(imports).toBeHidden();
    await expect(sendButton(page)).toHaveAccessibleDescription('Add at least one file to send.');
  } finally {
    await origin.close();
  }
});
