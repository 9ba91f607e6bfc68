import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signUp } from './support';
import { expectNoSeriousA11yViolations, sendTransfer } from './transfer-support';

/**
 * A recipient of photos sees them before downloading: thumbnails made by the server right after
 * the upload, and a lightbox they can use with the keyboard, in both themes.
 */
test('the recipient sees image thumbnails and pages through them in a lightbox', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-previews-'));
  const beach = path.join(dir, 'beach.jpg');
  const sunset = path.join(dir, 'sunset.png');
  const notes = path.join(dir, 'notes.pdf');
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#1e90ff' } }).jpeg().toFile(beach);
  await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#ff7f50' } }).png().toFile(sunset);
  fs.writeFileSync(notes, '%PDF-1.4\n% not much of a document\n');
  const recipientContext = await browser.newContext();
  try {
    await signUp(page);
    const link = await sendTransfer(page, { files: [beach, sunset, notes], title: 'Holiday' });

    const recipient = await recipientContext.newPage();
    await recipient.goto(link);
    const grid = recipient.getByRole('region', { name: 'Previews' });
    // Previews are made within moments of the upload; the page shows them once they exist.
    await expect(async () => {
      await recipient.reload();
      await expect(grid.getByRole('img')).toHaveCount(2, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    for (const img of await grid.getByRole('img').all()) {
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      expect(await img.evaluate((el: HTMLImageElement) => Math.max(el.naturalWidth, el.naturalHeight))).toBeLessThanOrEqual(480);
    }
    await expect(grid.getByRole('img', { name: 'notes.pdf' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(recipient, 'the recipient page with previews, light');

    // Keyboard only: open the first, go to the next, close; focus returns to the thumbnail.
    const first = grid.getByRole('button', { name: 'Open the preview of beach.jpg' });
    await first.focus();
    await recipient.keyboard.press('Enter');
    await expect(recipient.getByRole('dialog', { name: 'Preview of beach.jpg' })).toBeVisible();
    await recipient.keyboard.press('ArrowRight');
    const second = recipient.getByRole('dialog', { name: 'Preview of sunset.png' });
    await expect(second).toBeVisible();
    await expect(second.getByText('2 of 2')).toBeVisible();
    await expect(second.getByRole('link', { name: 'Download sunset.png' })).toBeVisible();
    await expectNoSeriousA11yViolations(recipient, 'the lightbox, light');
    await recipient.keyboard.press('Escape');
    await expect(recipient.getByRole('dialog')).toHaveCount(0);
    await expect(first).toBeFocused();

    // Dark.
    await recipient.getByRole('button', { name: 'Dark mode' }).click();
    await expectNoSeriousA11yViolations(recipient, 'the recipient page with previews, dark');
    await first.click();
    await expect(recipient.getByRole('dialog', { name: 'Preview of beach.jpg' })).toBeVisible();
    await expectNoSeriousA11yViolations(recipient, 'the lightbox, dark');
  } finally {
    await recipientContext.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
