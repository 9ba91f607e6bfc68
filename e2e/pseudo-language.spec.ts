import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { pseudoMessages } from '../src/app/test/pseudo-locale';
import { signUp } from './support';

/**
 * The dashboard in the pseudo-language (src/app/test/pseudo-locale.ts: every letter accented, every message 40 %
 * longer, between ⟦ ⟧), laid out by a real browser: a label cut off, a button overflowing its box, a page wider
 * than a phone, are what a long translation (German, Polish) would show first. The page is served in German and
 * its German catalogs are answered with the pseudo-language's.
 */

const pseudo = JSON.stringify(pseudoMessages());
const germanCatalogs = new Set(
  fs
    .readdirSync('dist/app/assets')
    .filter((file) => /^de-[\w-]+\.js$/.test(file))
    .map((file) => `/assets/${file}`),
);

const pages = ['/transfers', '/transfers/new', '/collections', '/requests', '/contacts', '/activity', '/members', '/webhooks', '/keys', '/security', '/settings', '/vault'];

/** Each element that shows less of its words than it holds: clipped, or cut with an ellipsis. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (!element.textContent?.includes('⟦') || element.children.length > 0) continue;
      // Words for screen readers only are clipped on purpose.
      if (element.closest('.sr-only') || element.getBoundingClientRect().width <= 1) continue;
      const style = getComputedStyle(element);
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (clips && element.scrollWidth > element.clientWidth + 1) found.push(`${element.tagName.toLowerCase()}: ${element.textContent.slice(0, 60)}`);
    }
    return found;
  });
}

test('the dashboard in a language 40 % longer than English: nothing cut off, no page wider than a phone', async ({ browser }) => {
  test.setTimeout(180_000);
  expect(germanCatalogs.size, 'the built app has a German catalog for the pages and one for the dashboard').toBe(2);
  const setup = await browser.newContext();
  await signUp(await setup.newPage());
  const state = await setup.storageState();
  await setup.close();

  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    const context = await browser.newContext({ storageState: state, viewport, locale: 'de-DE' });
    await context.route(
      (url) => germanCatalogs.has(url.pathname),
      (route) => route.fulfill({ contentType: 'text/javascript', body: `export default ${pseudo};` }),
    );
    const page = await context.newPage();
    const problems: string[] = [];
    for (const pathname of pages) {
      await page.goto(pathname);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('⟦');
      await page.waitForLoadState('networkidle');
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wider > 0) problems.push(`${pathname} at ${viewport.width} px: ${wider} px wider than the screen`);
      for (const cut of await cutOff(page)) problems.push(`${pathname} at ${viewport.width} px: ${cut}`);
    }
    await context.close();
    expect(problems).toEqual([]);
  }
});
