import { expect, type Browser } from '@playwright/test';
import { checkPages, type viewports } from './a11y-support';
import { makeFiles, signUp } from './support';
import { addFiles, expectUploadsFinished, sendTransfer } from './transfer-support';

/**
 * The dashboard pages a sender spends time on, each in the light and the dark theme, in one
 * viewport: axe finds no serious or critical violation. The theme is the app's own (the toggle's
 * stored choice), so the check does not depend on the system's preference. One spec file per
 * viewport, so each stays within its time budget (docs/testing.md).
 */
export async function dashboardPagesPassAxe(browser: Browser, viewport: (typeof viewports)[number]) {
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
        ['security', '/security', () => page.getByRole('region', { name: 'Where you are signed in' }).getByText('This browser')],
        ['a new transfer', '/transfers/new', () => page.locator('.uppy-Dashboard')],
      ]);
    }
  } finally {
    cleanup();
    await context.close();
  }
}
