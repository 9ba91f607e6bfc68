import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createCollection, secretLink, uploadToCollection } from './collection-support';
import { createRequest } from './request-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { addFiles, download, expectUploadsFinished, sendTransfer } from './transfer-support';

/**
 * The public pages (a transfer's, a collection's and an upload request's link) come rendered from
 * the server (src/app/entry-server.tsx): opened fresh without JavaScript they already show their
 * content; with it, the browser hydrates that very markup (the server's heading stays the same
 * element) with no hydration error or warning and no layout shift, and the page works as always.
 */

const HOSTILE = '<img src=x onerror=alert(1)>.txt';

/** Opens `link` in a fresh browser without JavaScript; `shows` checks what the server render holds. */
async function withoutJavaScript(browser: Browser, link: string, shows: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(link);
    await expect(page.locator('#root')).toHaveAttribute('data-ssr-at', /^\d+$/);
    await shows(page);
  } finally {
    await context.close();
  }
}

/**
 * Opens `link` in a fresh browser with JavaScript, noting every console error and warning, page
 * error, and layout shift, and the first `<h1>` the parser made; `use` then works the page.
 */
async function hydrated(browser: Browser, link: string, use: (page: Page) => Promise<void>, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ colorScheme });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript(() => {
      const w = window as unknown as { serverHeading?: Element | null; shifts: number; shifted: string[] };
      w.shifts = 0;
      w.shifted = [];
      // What moves before the visitor does anything: the hydration's doing. What their clicks open (a folder, the
      // next step) moves the page by design, and on a slow machine it can land past the browser's 500 ms input window.
      let touched = false;
      for (const type of ['pointerdown', 'keydown']) addEventListener(type, () => (touched = true), { capture: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (entry.hadRecentInput || touched) continue;
          w.shifts += entry.value;
          // What moved, and from where to where, for the failure's message.
          for (const source of (entry as unknown as { sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] }).sources ?? []) {
            const node = source.node instanceof Element ? source.node : source.node?.parentElement;
            const box = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
            w.shifted.push(`${entry.value.toFixed(5)} <${node?.tagName.toLowerCase()} class="${node?.getAttribute('class') ?? ''}"> "${node?.textContent?.slice(0, 40) ?? ''}" ${box(source.previousRect)} -> ${box(source.currentRect)}`);
          }
        }
      }).observe({ type: 'layout-shift', buffered: true });
      // The heading as the HTML parser made it, before any script of the page ran.
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') w.serverHeading = document.querySelector('#root h1');
      });
    });
    await page.goto(link, { waitUntil: 'networkidle' });
    await use(page);
    const { kept, shifts, shifted } = await page.evaluate(() => {
      const w = window as unknown as { serverHeading?: Element | null; shifts: number; shifted: string[] };
      return { kept: !!w.serverHeading && w.serverHeading.isConnected, shifts: w.shifts, shifted: w.shifted };
    });
    expect(problems.filter((p) => /hydrat|did not match|#418|#423|#425/i.test(p))).toEqual([]);
    expect(problems).toEqual([]);
    // Hydrated, not replaced: the server's heading is still in the document.
    expect(kept, 'the server-rendered heading is the one on screen').toBe(true);
    expect(shifts, `layout shifts on ${link}:\n${shifted.join('\n')}`).toBe(0);
  } finally {
    await context.close();
  }
}

test('the public pages show their content before JavaScript runs, then hydrate it cleanly and stay interactive', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { dir, files, cleanup } = makeFiles({ 'report.pdf': 120_000, [HOSTILE]: 2_000, 'shoot/beach.bin': 30_000, 'shoot/notes.txt': 1_000, 'upload.bin': 20_000 });
  try {
    await signUp(page, 'Harbour Films');
    await makeWorkspacePaid(page);

    // A transfer's link.
    const transferLink = await sendTransfer(page, { files: [files['report.pdf']!.path, files[HOSTILE]!.path], title: 'Cut for review' });
    await withoutJavaScript(browser, transferLink, async (visitor) => {
      await expect(visitor.getByRole('heading', { name: 'Cut for review', level: 1 })).toBeVisible();
      await expect(visitor.getByText('report.pdf').first()).toBeVisible();
      await expect(visitor.getByText(HOSTILE).first()).toBeVisible();
      // The name is text: no element was made of it.
      await expect(visitor.locator('img[src="x"]')).toHaveCount(0);
    });
    await hydrated(browser, transferLink, async (visitor) => {
      await expect(visitor.getByRole('heading', { name: 'Cut for review', level: 1 })).toBeVisible();
      const saved = await download(visitor, visitor.getByRole('link', { name: 'Download report.pdf' }));
      expect(saved.bytes.equals(files['report.pdf']!.bytes)).toBe(true);
    });
    // In the dark theme (set before the first paint by theme-init.js), the same: no flash, no shift, no mismatch.
    await hydrated(
      browser,
      transferLink,
      async (visitor) => {
        await expect(visitor.locator('html')).toHaveClass(/\bdark\b/);
        await expect(visitor.getByRole('link', { name: 'Download report.pdf' })).toBeVisible();
      },
      'dark',
    );

    // A public collection's link.
    await createCollection(page, { title: 'Harbour stills', visibility: 'Public' });
    await uploadToCollection(page, { folder: path.join(dir, 'shoot') }, 2);
    const collectionLink = await secretLink(page, 'Harbour stills');
    await withoutJavaScript(browser, collectionLink, async (visitor) => {
      await expect(visitor.getByRole('heading', { name: 'Harbour stills', level: 1 })).toBeVisible();
      await expect(visitor.getByRole('link', { name: 'shoot', exact: true })).toBeVisible();
    });
    await hydrated(browser, collectionLink, async (visitor) => {
      await visitor.getByRole('link', { name: 'shoot', exact: true }).click();
      await expect(visitor.getByRole('heading', { name: 'shoot', level: 2 })).toBeVisible();
      await expect(visitor.getByText('notes.txt').first()).toBeVisible();
    });

    // An upload request's link.
    const requestLink = await createRequest(page, { title: 'Send us your stills', message: 'Anything from <b>Tuesday</b>.', collection: 'Harbour stills', folder: 'shoot' });
    await withoutJavaScript(browser, requestLink, async (visitor) => {
      await expect(visitor.getByRole('heading', { name: 'Send us your stills', level: 1 })).toBeVisible();
      await expect(visitor.getByText('Anything from <b>Tuesday</b>.')).toBeVisible();
      await expect(visitor.getByLabel('Your name')).toBeVisible();
    });
    await hydrated(browser, requestLink, async (visitor) => {
      await visitor.getByLabel('Your name').fill('Ann Lee');
      await visitor.getByRole('button', { name: 'Continue' }).click();
      await addFiles(visitor, [files['upload.bin']!.path]);
      await expectUploadsFinished(visitor);
      await expect(visitor.getByRole('button', { name: 'Send 1 file' })).toBeEnabled();
    });
  } finally {
    cleanup();
  }
});
