import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { contents, createCollection, secretLink, uploadToCollection, writeImage } from './collection-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { addFiles, expectNoSeriousA11yViolations, expectUploadsFinished, sendTransfer } from './transfer-support';

/**
 * The dashboard pages a sender spends time on, each in the light and the dark theme, on a desktop
 * and a phone: axe finds no serious or critical violation. The theme is the app's own (the
 * toggle's stored choice), so the check does not depend on the system's preference.
 */

async function inTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => window.localStorage.setItem('parcel-theme', t), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
}

/** Opens each page in the theme, waits until what shows it is ready, and runs axe on it. */
async function checkPages(page: Page, theme: 'light' | 'dark', viewport: string, pages: [where: string, url: string, ready: () => Locator][]) {
  for (const [where, url, ready] of pages) {
    await page.goto(url);
    await inTheme(page, theme);
    await expect(ready()).toBeVisible();
    await expectNoSeriousA11yViolations(page, `${where}, ${theme}, ${viewport}`);
  }
}

for (const viewport of [
  { name: 'desktop', size: { width: 1280, height: 900 } },
  { name: 'phone', size: { width: 390, height: 844 } },
]) {
  test(`transfers list, a sent transfer, a draft and settings pass axe in both themes (${viewport.name})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: viewport.size });
    const page = await context.newPage();
    const { files, cleanup } = makeFiles({ 'notes.txt': 2_000, 'draft.bin': 4_000 });
    try {
      await signUp(page);
      await sendTransfer(page, { files: [files['notes.txt']!.path], title: 'Board pack', recipients: ['ada@example.test'] });
      const sentUrl = page.url().replace(/\?.*$/, '');

      // A draft: files up, never sent.
      await page.goto('/transfers/new');
      await addFiles(page, [files['draft.bin']!.path]);
      await expectUploadsFinished(page);
      await page.goto('/transfers');
      const drafts = page.getByRole('region', { name: 'Not sent yet' });
      await expect(drafts.getByRole('link', { name: 'draft.bin' })).toBeVisible();
      await drafts.getByRole('link', { name: 'draft.bin' }).click();
      await expect(page.getByRole('region', { name: 'Not sent yet' }).getByRole('button', { name: 'Send now' })).toBeVisible();
      const draftUrl = page.url();

      for (const theme of ['light', 'dark'] as const) {
        await checkPages(page, theme, viewport.name, [
          ['the transfers list', '/transfers', () => page.getByRole('region', { name: 'Sent' }).getByRole('link', { name: 'Board pack' })],
          ['a sent transfer', sentUrl, () => page.getByRole('region', { name: 'Notifications' })],
          ['a draft', draftUrl, () => page.getByRole('button', { name: 'Send now' })],
          ['settings', '/settings', () => page.getByRole('region', { name: 'Notifications' })],
          ['a new transfer', '/transfers/new', () => page.locator('.uppy-Dashboard')],
        ]);
      }
    } finally {
      cleanup();
      await context.close();
    }
  });
}

for (const viewport of [
  { name: 'desktop', size: { width: 1280, height: 900 } },
  { name: 'phone', size: { width: 390, height: 844 } },
]) {
  test(`the collections grid, a collection with files and its visitor page pass axe in both themes (${viewport.name})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ viewport: viewport.size });
    const page = await context.newPage();
    const { dir, files, cleanup } = makeFiles({ 'guidelines.pdf': 40_000, 'Brand/fonts.zip': 20_000 });
    const hero = path.join(dir, 'hero.jpg');
    try {
      await writeImage(hero, 1200, 800, '#2a9d8f');
      await signUp(page);
      await makeWorkspacePaid(page);
      const id = await createCollection(page, { title: 'Studio archive', description: 'Everything from the spring campaign.', visibility: 'Public' });
      await uploadToCollection(page, { files: [hero, files['guidelines.pdf']!.path] }, 2);
      await uploadToCollection(page, { folder: path.join(dir, 'Brand') }, 3);
      const visitorUrl = await secretLink(page, 'Studio archive');
      // Checked with the image's preview in place, once the worker has made it.
      await page.goto(visitorUrl);
      await expect(async () => {
        await page.reload();
        await expect(page.getByRole('button', { name: 'Preview hero.jpg' })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });

      for (const theme of ['light', 'dark'] as const) {
        await checkPages(page, theme, viewport.name, [
          ['the collections grid', '/collections', () => page.getByRole('link', { name: 'Studio archive' })],
          ['a collection with files', `/collections/${id}`, () => contents(page, 'Studio archive').getByRole('option', { name: 'hero.jpg' })],
          ['the visitor page', visitorUrl, () => page.getByRole('button', { name: 'Preview hero.jpg' })],
        ]);
      }
    } finally {
      cleanup();
      await context.close();
    }
  });
}
