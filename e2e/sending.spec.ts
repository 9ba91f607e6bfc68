import { expect, test } from '@playwright/test';
import { makeFiles, signUp } from './support';
import { addFiles, expectNoSeriousA11yViolations, expectUploadsFinished, listMail, mailText, personalLinks, sendButton } from './transfer-support';
import { addFile, throttleUploads, uploadProgress } from './upload-support';

/**
 * Sending as people do it: Send pressed while the files are still uploading, the transfer going out
 * by itself when the last byte is up, the recipient's mail, and the sender's mail when the recipient
 * downloads. And the uploader itself: the app's theme and sizes, and no serious axe findings.
 */

test('Send pressed at 10 % goes out when the upload ends; the recipient is mailed and the sender hears of the download', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { files, cleanup } = makeFiles({ 'footage.mov': 16 * 1024 * 1024 });
  const recipient = 'grace@example.test';
  try {
    const owner = await signUp(page);
    await throttleUploads(page, 2 * 1024 * 1024);
    await page.goto('/transfers/new');
    await addFile(page, files['footage.mov']!.path);
    await page.getByLabel('Title').fill('Rough cut');
    await page.getByLabel('Recipients').fill(recipient);

    await expect.poll(() => uploadProgress(page), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(10);
    expect(await uploadProgress(page)).toBeLessThan(60);
    await sendButton(page).click();
    const waiting = page.getByRole('form', { name: 'Transfer details' }).getByRole('status');
    await expect(waiting).toContainText('Sending as soon as the last file is uploaded');
    // Nobody was mailed yet: it has not been sent.
    expect((await listMail(page)).filter((m) => m.tag === 'transfer.sent')).toEqual([]);

    // The upload ends, the page sends it and lands on the transfer's own page.
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible({ timeout: 60_000 });
    await expect(page).toHaveURL(/\/transfers\/tr_[A-Za-z0-9]+\?sent=true$/);
    const links = await personalLinks(page, [recipient]);

    // The recipient downloads in their own browser; the sender is mailed about it.
    const other = await browser.newContext();
    const recipientPage = await other.newPage();
    await recipientPage.goto(links[recipient]!);
    const [download] = await Promise.all([
      recipientPage.waitForEvent('download'),
      recipientPage
        .getByRole('link', { name: /^Download/ })
        .first()
        .click(),
    ]);
    expect(await download.failure()).toBeNull();
    await other.close();

    const notice = await mailText(page, 'transfer.downloaded', owner.email);
    expect(notice).toContain(`${recipient} started downloading`);
    expect(notice).toContain('“Rough cut” was downloaded');
  } finally {
    cleanup();
  }
});

test('Enter never sends: in Recipients it makes a chip, in Title and Password it does nothing; only the Send button sends', async ({ page }) => {
  test.setTimeout(90_000);
  const { files, cleanup } = makeFiles({ 'notes.txt': 2_000 });
  const finalized: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/transfers\/[^/]+\/finalize$/.test(new URL(request.url()).pathname)) finalized.push(request.url());
  });
  try {
    await signUp(page);
    await page.goto('/transfers/new');
    await addFile(page, files['notes.txt']!.path);
    await expectUploadsFinished(page);

    const recipients = page.getByLabel('Recipients');
    await recipients.click();
    await page.keyboard.type('grace@example.test');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Will be emailed' }).getByRole('listitem')).toHaveText(['grace@example.test']);
    await expect(recipients).toHaveValue('');
    await expect(recipients).toBeFocused();

    await page.getByLabel('Title').click();
    await page.keyboard.type('Meeting notes');
    await page.keyboard.press('Enter');
    await page.getByLabel('Password').click();
    await page.keyboard.type('open sesame');
    await page.keyboard.press('Enter');
    // Still the form, nothing sent: Send would have gone to "Sending…" at once and left the page.
    await expect(sendButton(page)).toHaveText('Send');
    await expect(sendButton(page)).toBeEnabled();
    await expect(page).toHaveURL(/\/transfers\/new$/);
    expect(finalized).toEqual([]);
    expect((await listMail(page)).filter((m) => m.tag === 'transfer.sent')).toEqual([]);

    // The button itself, from the keyboard, is a deliberate send.
    await sendButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible({ timeout: 30_000 });
    expect(finalized).toHaveLength(1);
    expect(Object.keys(await personalLinks(page, ['grace@example.test']))).toEqual(['grace@example.test']);
  } finally {
    cleanup();
  }
});

test('the uploader header says what is happening while five files upload, never "0 files selected"', async ({ page }) => {
  test.setTimeout(90_000);
  const { files, cleanup } = makeFiles(Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`part-${i}.bin`, 6_000_000])));
  try {
    await signUp(page);
    await page.goto('/transfers/new');
    await expect(page.locator('.uppy-Dashboard-inner')).toBeVisible();
    // Every text the header ever shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { headerTexts: string[] }).headerTexts = seen;
      const record = () => {
        const text = document.querySelector('.uppy-DashboardContent-title')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      };
      new MutationObserver(record).observe(document.querySelector('.uppy-Dashboard')!, { childList: true, subtree: true, characterData: true });
    });
    await addFiles(page, Object.values(files).map((file) => file.path));
    await expectUploadsFinished(page);
    await expect(page.locator('.uppy-DashboardContent-title')).toHaveText('Upload complete');
    const texts = await page.evaluate(() => (window as unknown as { headerTexts: string[] }).headerTexts);
    expect(texts).toContain('Upload complete');
    expect(texts.filter((text) => /^0 files? selected/.test(text))).toEqual([]);
  } finally {
    cleanup();
  }
});

test("the uploader follows the app's theme, shows decimal sizes, and passes axe with one and several files", async ({ browser }) => {
  test.setTimeout(90_000);
  // The system says light; the sender switches the app to dark with the header toggle.
  const context = await browser.newContext({ colorScheme: 'light' });
  const page = await context.newPage();
  const { files, cleanup } = makeFiles({ 'one.bin': 20 * 1024 * 1024, 'two.txt': 3_000, 'three.txt': 5_000 });
  try {
    await signUp(page);
    await page.goto('/transfers/new');
    const uploader = page.locator('.uppy-Dashboard');
    await expect(uploader).toHaveAttribute('data-uppy-theme', 'light');
    await expectNoSeriousA11yViolations(page, 'the empty uploader, light');

    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect(uploader).toHaveAttribute('data-uppy-theme', 'dark');
    const panel = page.locator('.uppy-Dashboard-inner');
    expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(24, 24, 27)');
    // The app's font, not Uppy's own stack.
    expect(await uploader.evaluate((el) => getComputedStyle(el).fontFamily)).toBe(await page.evaluate(() => getComputedStyle(document.body).fontFamily));
    await expectNoSeriousA11yViolations(page, 'the empty uploader, dark');

    // One file: 20 MiB is 21 MB, as everywhere else in the product.
    await addFile(page, files['one.bin']!.path);
    await expect(page.locator('.uppy-Dashboard-Item-statusSize')).toHaveText('21 MB');
    await expectUploadsFinished(page);
    await expect(page.getByTestId('upload-status')).toHaveText('The file is uploaded (21 MB).');
    await expectNoSeriousA11yViolations(page, 'the uploader with one file, dark');
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect(uploader).toHaveAttribute('data-uppy-theme', 'light');
    await expectNoSeriousA11yViolations(page, 'the uploader with one file, light');

    // Several files, through "Add more".
    await page.getByRole('button', { name: 'Add more files' }).click();
    await page.locator('input.uppy-Dashboard-input[name="files[]"]:not([webkitdirectory])').setInputFiles([files['two.txt']!.path, files['three.txt']!.path]);
    await expectUploadsFinished(page);
    await expect(page.getByTestId('upload-status')).toHaveText('All 3 files are uploaded (21 MB).');
    await expectNoSeriousA11yViolations(page, 'the uploader with three files, light');
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expectNoSeriousA11yViolations(page, 'the uploader with three files, dark');
  } finally {
    cleanup();
    await context.close();
  }
});
