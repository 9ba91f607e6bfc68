import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './transfer-support';

/** The accessibility sweeps of the dashboard (dashboard-a11y.spec.ts, collections-a11y.spec.ts). */

export const viewports = [
  { name: 'desktop', size: { width: 1280, height: 900 } },
  { name: 'phone', size: { width: 390, height: 844 } },
];

async function inTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => window.localStorage.setItem('parcel-theme', t), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
}

/** Opens each page in the theme, waits until what shows it is ready, and runs axe on it. */
export async function checkPages(page: Page, theme: 'light' | 'dark', viewport: string, pages: [where: string, url: string, ready: () => Locator][]) {
  for (const [where, url, ready] of pages) {
    await page.goto(url);
    await inTheme(page, theme);
    await expect(ready()).toBeVisible();
    await expectNoSeriousA11yViolations(page, `${where}, ${theme}, ${viewport}`);
  }
}

