import { expect, test, type Page } from '@playwright/test';
import { makeFiles, screenshotsInBothThemes, signUp } from './support';
import { expectUploadsFinished, sendButton, sendTransfer } from './transfer-support';
import { addFile } from './upload-support';

/**
 * The sending screens on a phone (390 × 844, a common size): nothing wider than the screen, so the
 * page never scrolls sideways, and Send within reach rather than below a tall empty drop zone.
 * `PHONE_SCREENSHOTS=1` also saves light and dark screenshots of both pages for a look.
 */

const phone = { width: 390, height: 844 };

/** How far the page scrolls sideways, and the widest elements that stick out, for the failure message. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join('.')}`);
    return { scrollWidth: document.documentElement.scrollWidth, width, culprits };
  });
}

test.use({ viewport: phone });

test('New transfer on a phone: no sideways scrolling, a compact empty drop zone, and Send close at hand', async ({ page }) => {
  test.setTimeout(90_000);
  const { files, cleanup } = makeFiles({ 'one.txt': 1_000, 'two.txt': 2_000 });
  try {
    await signUp(page);
    await page.goto('/transfers/new');
    const dropZone = page.getByRole('region', { name: 'Files to send' });
    await expect(dropZone.locator('.uppy-Dashboard-inner')).toBeVisible();
    const empty = await overflow(page);
    expect(empty.scrollWidth, `wider than the screen: ${empty.culprits.join(', ')}`).toBeLessThanOrEqual(phone.width);
    // The empty drop zone takes at most a third of the screen: the details and Send follow soon after.
    expect((await dropZone.boundingBox())!.height).toBeLessThanOrEqual(phone.height / 3);
    const send = sendButton(page);
    const sendTop = await send.evaluate((button) => button.getBoundingClientRect().top + window.scrollY);
    expect(sendTop).toBeLessThanOrEqual(2 * phone.height);
    await screenshotsInBothThemes(page, 'new-transfer-empty', 'PHONE_SCREENSHOTS');
    // The screenshots end on a desktop size.
    await page.setViewportSize(phone);

    await addFile(page, files['one.txt']!.path);
    await expectUploadsFinished(page);
    const withFiles = await overflow(page);
    expect(withFiles.scrollWidth, `wider than the screen: ${withFiles.culprits.join(', ')}`).toBeLessThanOrEqual(phone.width);
    await screenshotsInBothThemes(page, 'new-transfer-files', 'PHONE_SCREENSHOTS');
  } finally {
    cleanup();
  }
});

test('a transfer’s page on a phone does not scroll sideways: its file and recipient tables fit the screen', async ({ page }) => {
  test.setTimeout(90_000);
  const { files, cleanup } = makeFiles({ 'a-rather-long-file-name-from-the-studio-2026-final.mov': 3_000, 'Invoice 2026-11 (signed).pdf': 2_000 });
  try {
    await signUp(page);
    await sendTransfer(page, { files: Object.values(files).map((file) => file.path), title: 'Studio delivery', recipients: ['grace@example.test'] });
    await page.getByRole('heading', { level: 1, name: 'Studio delivery' }).waitFor();
    const table = page.getByRole('region', { name: 'Files', exact: true }).getByRole('table');
    await expect(table.getByRole('rowheader', { name: 'Invoice 2026-11 (signed).pdf' })).toBeVisible();
    const measured = await overflow(page);
    expect(measured.scrollWidth, `wider than the screen: ${measured.culprits.join(', ')}`).toBeLessThanOrEqual(phone.width);
    // The lists themselves do not scroll sideways either: every file's size and state, and every
    // recipient's columns, are on screen.
    for (const list of ['Files', 'Recipients']) {
      const scroller = page.getByRole('group', { name: `${list} (scrolls sideways)` });
      expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth), list).toBeLessThanOrEqual(0);
      for (const cell of await scroller.getByRole('cell').all()) {
        const box = (await cell.boundingBox())!;
        expect(box.x + box.width, list).toBeLessThanOrEqual(phone.width);
      }
    }
    await expect(page.getByRole('group', { name: 'Recipients (scrolls sideways)' }).getByRole('rowheader', { name: 'grace@example.test' })).toBeVisible();
    await screenshotsInBothThemes(page, 'transfer-page', 'PHONE_SCREENSHOTS');
  } finally {
    cleanup();
  }
});
