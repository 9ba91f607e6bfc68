import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './transfer-support';

/** The accessibility sweeps of the dashboard (dashboard-a11y.spec.ts, collections-a11y.spec.ts). */

export const viewports = [
  { name: 'desktop', size: { width: 1280, height: 900 } },
  { name: 'phone', size: { width: 390, height: 844 } },
];

const themeClass = (theme: 'light' | 'dark') => (theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);

async function inTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => window.localStorage.setItem('parcel-theme', t), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(themeClass(theme));
}

/**
 * Opens each page in the theme, waits until what shows it is ready, and runs axe on it. The theme is
 * chosen on the first page (the toggle's stored choice, then a reload); the pages after it open in it.
 */
export async function checkPages(page: Page, theme: 'light' | 'dark', viewport: string, pages: [where: string, url: string, ready: () => Locator][]) {
  for (const [index, [where, url, ready]] of pages.entries()) {
    await page.goto(url);
    if (index === 0) await inTheme(page, theme);
    else await expect(page.locator('html')).toHaveClass(themeClass(theme));
    await expect(ready()).toBeVisible();
    await expectNoSeriousA11yViolations(page, `${where}, ${theme}, ${viewport}`);
  }
}

