import path from 'node:path';
import { expect, test } from '@playwright/test';
import { checkPages, viewports } from './a11y-support';
import { contents, createCollection, secretLink, uploadToCollection, writeImage } from './collection-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';

/**
 * The collection pages (the grid, a collection with files, and its visitor page), each in the
 * light and the dark theme, on a desktop and a phone: axe finds no serious or critical violation.
 * A file of its own beside dashboard-a11y.spec.ts, so the two sweeps can run side by side.
 */

for (const viewport of viewports) {
  test(`the collections grid, a collection with files and its visitor page pass axe in both themes (${viewport.name})`, async ({ browser }) => {
    // Uploads, then six page loads each checked by axe: on a busy 2-core CI machine this has taken 90 s.
    test.setTimeout(180_000);
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
