import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeFiles, signUp } from './support';
import { addFiles, addFolder, download, expectNoSeriousA11yViolations, expectUploadsFinished, personalLinks, sendButton, unzipAll } from './transfer-support';

/**
 * The product's core promise: an owner drops files and a folder, sends them to two people by
 * email, and one of them opens their personal link in their own browser and gets identical bytes,
 * one file on its own and everything as a zip. The owner then sees who downloaded what.
 */
test('an owner sends two files and a folder to two recipients, and a recipient downloads them', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { files, dir, cleanup } = makeFiles({
    'brief.pdf': 300 * 1024,
    'footage.mov': 1536 * 1024,
    'assets/readme.txt': 20 * 1024,
    'assets/img/logo.png': 80 * 1024,
  });
  const ada = 'ada@example.test';
  const grace = 'grace@example.test';
  const title = 'Launch kit';

  try {
    await signUp(page);
    await page.goto('/transfers');
    await page.getByRole('link', { name: 'New transfer' }).click();
    await expect(page.getByRole('heading', { name: 'New transfer', level: 1 })).toBeVisible();
    await expect(sendButton(page)).toBeDisabled();

    await addFiles(page, [files['brief.pdf']!.path, files['footage.mov']!.path]);
    await addFolder(page, path.join(dir, 'assets'));

    // Uploads start at once; the line under the uploader says when all four are up.
    const uploader = page.getByRole('region', { name: 'Files to send' });
    await expect(uploader.getByRole('listitem')).toHaveCount(4);
    await expectUploadsFinished(page);
    await expectNoSeriousA11yViolations(page, 'the new-transfer page with files added');

    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Message').fill('Everything for Monday.');
    await page.getByLabel('Recipients').fill(`${ada}, ${grace}`);
    await expect(page.getByRole('list', { name: 'Will be emailed' }).getByRole('listitem')).toHaveText([ada, grace]);
    await sendButton(page).click();

    // The sender lands on the transfer's own page, which a refresh keeps.
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible();
    await expect(page).toHaveURL(/\/transfers\/tr_[A-Za-z0-9]+\?sent=true$/);
    await expect(page.getByText('2 recipients were emailed a link.')).toBeVisible();
    const link = await page.getByRole('textbox', { name: 'Transfer link' }).inputValue();
    expect(link).toMatch(/\/t\/[A-Za-z0-9_-]+$/);
    await expect(page.getByRole('region', { name: 'Your transfer is on its way' }).getByRole('textbox', { name: 'Link to share' })).toHaveValue(link);
    await expect(page.getByRole('img', { name: 'QR code for the transfer link' })).toBeVisible();
    const emailed = page.getByRole('region', { name: 'Recipients' }).getByRole('rowheader');
    await expect(emailed).toHaveText([ada, grace]);
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Transfer link' })).toHaveValue(link);

    // One message per recipient, each with its own personal link to the same transfer.
    const links = await personalLinks(page, [ada, grace]);
    expect(links[ada]!.startsWith(`${link}?r=`)).toBe(true);
    expect(links[grace]!.startsWith(`${link}?r=`)).toBe(true);
    expect(links[ada]).not.toBe(links[grace]);

    // Ada, in her own browser: no cookies of the owner's.
    const adaContext = await browser.newContext();
    try {
      const recipient = await adaContext.newPage();
      await recipient.goto(links[ada]!);
      await expect(recipient.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(recipient.getByText('Everything for Monday.')).toBeVisible();
      const fileList = recipient.getByRole('region', { name: 'Files', exact: true });
      await expect(fileList.getByRole('listitem')).toHaveCount(4);
      const expected: [name: string, folder: string | null][] = [
        ['brief.pdf', null],
        ['footage.mov', null],
        ['readme.txt', 'assets'],
        ['logo.png', 'assets/img'],
      ];
      for (const [name, folder] of expected) {
        const item = fileList.getByRole('listitem').filter({ has: recipient.getByRole('link', { name: `Download ${name}`, exact: true }) });
        await expect(item).toHaveCount(1);
        if (folder) await expect(item).toContainText(`Folder: ${folder}/`);
        else await expect(item).not.toContainText('Folder:');
      }
      await expectNoSeriousA11yViolations(recipient, 'the recipient page');

      const one = await download(recipient, recipient.getByRole('link', { name: 'Download footage.mov' }));
      expect(one.download.suggestedFilename()).toBe('footage.mov');
      expect(one.bytes.equals(files['footage.mov']!.bytes)).toBe(true);

      const zip = await download(recipient, recipient.getByRole('link', { name: /Download all/ }));
      expect(zip.download.suggestedFilename()).toMatch(/\.zip$/);
      const unzipped = unzipAll(zip.file);
      expect(Object.keys(unzipped).sort()).toEqual(['assets/img/logo.png', 'assets/readme.txt', 'brief.pdf', 'footage.mov']);
      for (const [name, entry] of Object.entries(files)) {
        expect(unzipped[name]!.equals(entry.bytes), `${name} in the zip`).toBe(true);
      }
    } finally {
      await adaContext.close();
    }

    // Back with the owner: the list, then the transfer's page.
    await page.goto('/transfers');
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) });
    await expect(row).toContainText('4 files');
    await expect(row).toContainText(`${ada} and 1 other`);
    await expectNoSeriousA11yViolations(page, 'the transfers list');
    await row.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

    // The folder's relative paths were kept.
    const fileTable = page.getByRole('group', { name: 'Files (scrolls sideways)' });
    for (const [name, folder] of [['brief.pdf', '—'], ['footage.mov', '—'], ['readme.txt', 'assets'], ['logo.png', 'assets/img']]) {
      const fileRow = fileTable.getByRole('row').filter({ has: page.getByRole('rowheader', { name: name!, exact: true }) });
      await expect(fileRow.getByRole('cell').first()).toHaveText(folder!);
      await expect(fileRow.getByRole('cell').last()).toHaveText('Complete');
    }

    const recipients = page.getByRole('group', { name: 'Recipients (scrolls sideways)' });
    const adaRow = recipients.getByRole('row').filter({ has: page.getByRole('rowheader', { name: ada }) });
    const graceRow = recipients.getByRole('row').filter({ has: page.getByRole('rowheader', { name: grace }) });
    // Cells: Notified, Downloaded, Bounced.
    await expect(adaRow.getByRole('cell').nth(0)).not.toHaveText('Not yet');
    await expect(adaRow.getByRole('cell').nth(1)).toHaveText('Downloaded');
    await expect(graceRow.getByRole('cell').nth(0)).not.toHaveText('Not yet');
    await expect(graceRow.getByRole('cell').nth(1)).toHaveText('Not yet');

    // One visit, Ada's, with the single file and the zip, both completed.
    const visits = page.getByRole('list', { name: 'Visits, newest first' });
    await expect(async () => {
      await page.reload();
      await expect(visits.locator(':scope > li')).toHaveCount(1, { timeout: 2_000 });
      const visit = visits.locator(':scope > li').first();
      await expect(visit.getByRole('heading', { level: 3 })).toHaveText(ada, { timeout: 2_000 });
      const items = visit.getByRole('listitem');
      await expect(items).toHaveCount(2, { timeout: 2_000 });
      await expect(items.filter({ hasText: 'footage.mov' })).toContainText('completed', { timeout: 2_000 });
      await expect(items.filter({ hasText: 'All files (zip)' })).toContainText('completed', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Downloads', exact: true })).toContainText('1 visit,');
    // The visit counts once against the transfer's downloads, however many files it fetched.
    await expect(page.getByLabel('About this transfer').locator('dt:text-is("Downloads") + dd')).toHaveText('1');
    await expectNoSeriousA11yViolations(page, 'the transfer page');
  } finally {
    cleanup();
  }
});
