import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { LOCALES, textDirection } from '../src/contract/locales';
import { createCollection, newFolder } from './collection-support';
import { createRequest } from './request-support';
import { makeWorkspacePaid, signUp } from './support';
import { expectNoSeriousA11yViolations, mailText, sendTransfer } from './transfer-support';

/**
 * The recipient's page in its reader's language (issue 38): the browser's `Accept-Language` picks it, the page's
 * menu changes it for good (a cookie), and Arabic reads right to left; each language axe-clean and within a phone's
 * width. `LANGUAGE_SCREENSHOTS=1` keeps a picture of each, phone and desktop, in the temporary directory.
 */

const catalogOf = (area: 'app' | 'dashboard' | 'mail', locale: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join('src/locales', area, `${locale}.json`), 'utf8'));
const catalog = (locale: string) => catalogOf('app', locale);

let link: string;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-languages-'));
  try {
    const report = path.join(dir, 'report.pdf');
    const data = path.join(dir, 'data.bin');
    fs.writeFileSync(report, Buffer.alloc(2_500_000, 7));
    fs.writeFileSync(data, Buffer.alloc(1_200, 1));
    await signUp(page);
    link = await sendTransfer(page, { files: [report, data], title: 'Q3' });
  } finally {
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function readerIn(browser: Browser, locale: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ locale, viewport });
  return { context, page: await context.newPage() };
}

test('a German browser gets the page in German, sizes and dates too, and the menu switches it to Japanese for good', async ({ browser }) => {
  const de = catalog('de');
  const ja = catalog('ja');
  const { context, page } = await readerIn(browser, 'de-DE');
  try {
    await page.goto(link);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByText(de['transfer.totalSize']!, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Q3', level: 1 })).toBeVisible();
    // 2,500,000 bytes and a week, as a German reader writes them.
    await expect(page.getByText('2,5 MB').first()).toBeVisible();
    await expect(page.getByText(/in 7 Tagen/)).toBeVisible();
    await expect(page.getByText(/Total size|Available until|Download all/)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'the recipient page in German');

    await page.getByLabel(de['language.label']!).selectOption('ja');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByText(ja['transfer.totalSize']!, { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByText(ja['transfer.totalSize']!, { exact: true })).toBeVisible();
    await expect(page.getByLabel(ja['language.label']!)).toHaveValue('ja');
  } finally {
    await context.close();
  }
});

test('every language reads well on a phone, Arabic right to left, each axe-clean', async ({ browser }) => {
  test.setTimeout(120_000);
  // A desktop picture of each too, to look at, with LANGUAGE_SCREENSHOTS=1.
  const viewports = [{ width: 390, height: 844 }, ...(process.env.LANGUAGE_SCREENSHOTS ? [{ width: 1280, height: 900 }] : [])];
  const { context, page } = await readerIn(browser, 'en', viewports[0]);
  try {
    for (const locale of LOCALES) {
      const messages = locale === 'en' ? null : catalog(locale);
      // The reader's pick from the menu, as a cookie: the browser's own language is the test above's.
      await context.addCookies([{ name: 'parcel_lang', value: locale, url: link }]);
      for (const viewport of viewports) {
        await page.setViewportSize(viewport);
        await page.goto(link);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.locator('html')).toHaveAttribute('dir', textDirection(locale));
        if (messages) await expect(page.getByText(messages['transfer.totalSize']!, { exact: true })).toBeVisible();
        // The page's scripts have taken over (the button is a link once its visit is there).
        await expect(page.locator('a[download]').first()).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${locale} at ${viewport.width} px scrolls sideways`).toBeLessThanOrEqual(0);
        if (viewport.width < 500) await expectNoSeriousA11yViolations(page, `the recipient page in ${locale}`);
        if (process.env.LANGUAGE_SCREENSHOTS) await page.screenshot({ path: `${os.tmpdir()}/recipient-${locale}-${viewport.width}.png`, fullPage: true });
      }
    }
  } finally {
    await context.close();
  }
});

test('an Arabic reader’s file list runs right to left', async ({ browser }) => {
  const { context, page } = await readerIn(browser, 'ar');
  try {
    await page.goto(link);
    const start = await page.locator('main').evaluate((main) => getComputedStyle(main).direction);
    expect(start).toBe('rtl');
    // The file list's name column starts on the right: the first file's name is right of its icon.
    const row = page.locator('section[aria-labelledby="files-title"] li').filter({ hasText: 'report.pdf' });
    const name = await row.locator('bdi', { hasText: 'report.pdf' }).boundingBox();
    const icon = await row.locator('svg').first().boundingBox();
    expect(name!.x + name!.width).toBeLessThanOrEqual(icon!.x + 1);
  } finally {
    await context.close();
  }
});

test('a sender picks a recipient’s language: that recipient is mailed in it, the others in the sender’s', async ({ page }) => {
  await signUp(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-languages-'));
  try {
    const plan = path.join(dir, 'plan.pdf');
    fs.writeFileSync(plan, Buffer.alloc(40_000, 5));
    await sendTransfer(page, { files: [plan], title: 'Plans', recipients: ['anna@example.test', 'bob@example.test'], languages: { 'anna@example.test': 'Deutsch' } });
    const german = await mailText(page, 'transfer.sent', 'anna@example.test');
    expect(german).toContain('<html lang="de" dir="ltr">');
    expect(german).toContain(catalogOf('mail', 'de')['mail.transferSent.action']!);
    const english = await mailText(page, 'transfer.sent', 'bob@example.test');
    expect(english).toContain('Get your files');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an uploader in French answers a request in French, Uppy’s words too, and the owner is mailed in the owner’s language', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const fr = catalog('fr');
  const owner = await signUp(page, 'Northwind');
  await makeWorkspacePaid(page);
  await createCollection(page, { title: 'Clients', visibility: 'Private' });
  await newFolder(page, 'Clients', 'Incoming');
  const link = await createRequest(page, { title: 'Contrat signé', message: 'Merci de déposer le contrat.', collection: 'Clients', folder: 'Incoming' });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-languages-'));
  const { context, page: uploader } = await readerIn(browser, 'fr-FR', { width: 390, height: 844 });
  try {
    const contract = path.join(dir, 'contrat.pdf');
    fs.writeFileSync(contract, Buffer.alloc(120_000, 3));
    await uploader.goto(link);
    await expect(uploader.locator('html')).toHaveAttribute('lang', 'fr');
    await uploader.getByLabel(fr['upload.details.name']!, { exact: true }).fill('Amélie Durand');
    await uploader.getByRole('button', { name: fr['upload.details.continue']! }).click();
    // Uppy's own drop zone, from its French translation.
    await expect(uploader.locator('.uppy-Dashboard-AddFiles-title')).toContainText('Déposer');
    await uploader.locator('.uppy-Dashboard-input:not([webkitdirectory])').first().setInputFiles([contract]);
    await expect(uploader.getByTestId('upload-status')).toHaveText(/^Le fichier/, { timeout: 30_000 });
    await expectNoSeriousA11yViolations(uploader, 'the upload page in French');
    const overflow = await uploader.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await uploader.getByRole('button', { name: /^Transmettre 1 fichier$/ }).click();
    await expect(uploader.getByRole('heading', { name: /^Merci/ })).toHaveText(fr['upload.thanks.heading']!);
    await expect(uploader.locator('html')).toHaveAttribute('lang', 'fr');

    // The owner chose no other language: their mail about it is in English, whatever the uploader's was.
    const mail = await mailText(page, 'request.submitted', owner.email);
    expect(mail).toContain('Amélie Durand sent 1 file');
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The English messages (with no placeholder, of a few words) the page still shows where its language has its own. */
async function englishLeftOn(page: Page, locale: string): Promise<string[]> {
  const shown = await page.locator('body').innerText();
  const english = { ...catalogOf('app', 'en'), ...catalogOf('dashboard', 'en') };
  const translated = { ...catalogOf('app', locale), ...catalogOf('dashboard', locale) };
  return Object.entries(english)
    .filter(([id, words]) => words.length >= 12 && !/[{<]/.test(words) && translated[id] !== words && !Object.values(translated).includes(words))
    .map(([, words]) => words)
    .filter((words) => shown.includes(words));
}

test('an owner picks Polish in Settings: the dashboard is in Polish, its dates too, and so it is on their other devices', async ({ page, browser }) => {
  const pl = { ...catalogOf('app', 'pl'), ...catalogOf('dashboard', 'pl') };
  const owner = await signUp(page);
  await page.goto('/settings');
  await page.getByLabel('Your language').selectOption('pl');
  // Served anew in Polish.
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1, name: pl['pages.settings.title']! })).toBeVisible();
  await expect(page.getByLabel(pl['settings.language.label']!)).toHaveValue('pl');
  // The workspace was created today, written as a Polish reader writes dates ("30 lis 2026").
  const today = await page.evaluate(() => new Intl.DateTimeFormat('pl', { dateStyle: 'medium' }).format(new Date()));
  await expect(page.getByText(today, { exact: true }).first()).toBeVisible();
  expect(await englishLeftOn(page, 'pl')).toEqual([]);
  await expectNoSeriousA11yViolations(page, 'Settings in Polish');

  await page.getByRole('link', { name: pl['common.appShell.nav.transfers']!, exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: pl['pages.transfers.title']! })).toBeVisible();
  await page.getByRole('link', { name: pl['pages.transfers.new']! }).first().click();
  await expect(page.getByRole('button', { name: pl['send.details.send']!, exact: true })).toBeVisible();
  expect(await englishLeftOn(page, 'pl')).toEqual([]);

  // Another device, whose browser asks for English: signing in there, the dashboard is in Polish.
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const other = await context.newPage();
    await other.goto('/signin');
    await expect(other.locator('html')).toHaveAttribute('lang', 'en');
    await other.getByLabel('Email').fill(owner.email);
    await other.getByLabel('Password', { exact: true }).fill(owner.password);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(other.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(other.getByRole('heading', { level: 1, name: pl['pages.transfers.title']! })).toBeVisible();
    expect(await englishLeftOn(other, 'pl')).toEqual([]);
  } finally {
    await context.close();
  }
});
