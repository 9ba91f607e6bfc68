import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { contents, createCollection, secretLink, tool, uploadToCollection, writeLandscape } from './collection-support';
import { createRequest } from './request-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { addFiles, expectUploadsFinished } from './transfer-support';

/**
 * The README's screenshots, made from real flows on a real server: `npm run screenshots` writes
 * them to docs/screenshots. Not part of `npm test` (playwright.config.ts leaves this file out
 * unless UPDATE_SCREENSHOTS is set): every flow here is asserted by its own spec already.
 */

/** Every image on the page loaded, lazy ones too (a full-page screenshot reaches below the fold). */
async function imagesLoaded(page: Page) {
  await page.locator('img[loading="lazy"]').evaluateAll((images: HTMLImageElement[]) => images.forEach((image) => (image.loading = 'eager')));
  await expect
    .poll(() => page.locator('img').evaluateAll((images: HTMLImageElement[]) => images.every((image) => image.complete && image.naturalWidth > 0)))
    .toBe(true);
}

test('README screenshots: the collection browser and the collection page on a desktop and a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const title = 'Harbour Festival 2026';
  const palettes = [
    { sky: ['#1d3557', '#f4a261'], sun: '#ffd6a5', hills: ['#3d405b', '#22223b'], water: '#14213d' },
    { sky: ['#90e0ef', '#caf0f8'], sun: '#fff3b0', hills: ['#52b788', '#2d6a4f'], water: '#0077b6' },
    { sky: ['#ffafcc', '#ffc8dd'], sun: '#fff1e6', hills: ['#9d4edd', '#5a189a'], water: '#3c096c' },
    { sky: ['#e9c46a', '#f4a261'], sun: '#fefae0', hills: ['#bc6c25', '#7f5539'], water: '#264653' },
    { sky: ['#03045e', '#0096c7'], sun: '#f1faee', hills: ['#1b263b', '#0d1b2a'], water: '#023e8a' },
    { sky: ['#a8dadc', '#f1faee'], sun: '#ffb703', hills: ['#8ecae6', '#219ebc'], water: '#126782' },
  ] as const;
  const photos = ['Harbour at dusk.jpg', 'Morning regatta.jpg', 'Lanterns on the quay.jpg', 'Dune walk.jpg', 'Night parade.jpg', 'Lighthouse.jpg'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-screenshots-'));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  try {
    for (const [i, name] of photos.entries()) await writeLandscape(path.join(dir, name), palettes[i % palettes.length]!);
    for (const [folder, names] of [
      ['Friday', ['Opening night.jpg', 'Stage left.jpg']],
      ['Saturday', ['Tall ships.jpg', 'Crowd.jpg', 'Last light.jpg']],
      ['Press kit', ['Festival logo.jpg']],
    ] as const) {
      for (const [i, name] of names.entries()) await writeLandscape(path.join(dir, folder, name), palettes[(i + folder.length) % palettes.length]!);
    }

    const page = await context.newPage();
    await page.addInitScript(() => window.localStorage.setItem('parcel-theme', 'light'));
    await signUp(page, 'Northlight Studio');
    await makeWorkspacePaid(page);
    const id = await createCollection(page, {
      title,
      description: 'Photos from three days on the quay, for press and partners. Please credit “Harbour Festival / Northlight Studio”.',
      visibility: 'Public',
    });
    await uploadToCollection(page, { files: photos.map((name) => path.join(dir, name)) }, 6);
    await uploadToCollection(page, { folder: path.join(dir, 'Friday') }, 8);
    await uploadToCollection(page, { folder: path.join(dir, 'Saturday') }, 11);
    await uploadToCollection(page, { folder: path.join(dir, 'Press kit') }, 12);
    await contents(page, title).getByRole('option', { name: 'Harbour at dusk.jpg' }).click();
    await tool(page, 'Set as cover').click();
    await expect(page.getByRole('status').filter({ hasText: 'is the cover now.' })).toHaveCount(1);
    const link = await secretLink(page, title);

    // Previews are made by the worker moments after each upload.
    const visitorDesktop = await context.newPage();
    await visitorDesktop.addInitScript(() => {
      window.localStorage.setItem('parcel-theme', 'light');
      window.localStorage.setItem('parcel-collection-view', 'grid');
    });
    await visitorDesktop.goto(link);
    await expect(async () => {
      await visitorDesktop.reload();
      await expect(visitorDesktop.getByRole('button', { name: /^Preview / })).toHaveCount(photos.length, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    // The owner's browser in grid view, one photo selected, without the finished uploads' panel.
    await page.goto(`/collections/${id}?view=grid`);
    await contents(page, title).getByRole('option', { name: 'Morning regatta.jpg' }).click();
    await imagesLoaded(page);
    await page.screenshot({ path: 'docs/screenshots/collection-browser.png' });

    await imagesLoaded(visitorDesktop);
    await visitorDesktop.screenshot({ path: 'docs/screenshots/collection-page.png', fullPage: true });

    const visitorPhone = await context.newPage();
    await visitorPhone.setViewportSize({ width: 390, height: 844 });
    await visitorPhone.addInitScript(() => {
      window.localStorage.setItem('parcel-theme', 'light');
      window.localStorage.setItem('parcel-collection-view', 'grid');
    });
    await visitorPhone.goto(link);
    await expect(visitorPhone.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await imagesLoaded(visitorPhone);
    await visitorPhone.screenshot({ path: 'docs/screenshots/collection-page-phone.png' });
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('README screenshots: the upload page on a desktop and a phone, and the request with its submission', async ({ browser }) => {
  test.setTimeout(120_000);
  const { files, cleanup } = makeFiles({ 'Signed contract.pdf': 420_000, 'Passport scan.jpg': 1_300_000, 'Proof of address.pdf': 260_000 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => window.localStorage.setItem('parcel-theme', 'light'));
    await signUp(page, 'Harbour & Co. Solicitors');
    await makeWorkspacePaid(page);
    await createCollection(page, { title: 'Client onboarding', visibility: 'Private' });
    const link = await createRequest(page, {
      title: 'Documents for your new account',
      message:
        'Hello! Please upload the signed engagement letter, a scan of your passport and a recent proof of address.\nEverything stays private to our team.',
      collection: 'Client onboarding',
      folder: 'Top level of the collection',
    });

    const visitor = await context.newPage();
    await visitor.addInitScript(() => window.localStorage.setItem('parcel-theme', 'light'));
    await visitor.goto(link);
    await visitor.getByLabel('Your name').fill('Maria Jensen');
    await visitor.getByLabel('Your email address (optional)').fill('maria.jensen@example.test');
    await visitor.getByLabel(/message/i).fill('All three attached. The letter is signed on page 4.');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await addFiles(
      visitor,
      Object.values(files).map((f) => f.path),
    );
    await expectUploadsFinished(visitor);
    await visitor.screenshot({ path: 'docs/screenshots/upload-request.png', fullPage: true });
    await visitor.getByRole('button', { name: 'Send 3 files' }).click();
    await expect(visitor.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

    const onPhone = await phone.newPage();
    await onPhone.addInitScript(() => window.localStorage.setItem('parcel-theme', 'dark'));
    await onPhone.goto(link);
    await expect(onPhone.getByLabel('Your name')).toBeVisible();
    await onPhone.screenshot({ path: 'docs/screenshots/upload-request-phone.png', fullPage: true });

    await page.reload();
    await expect(page.getByRole('region', { name: 'Submissions' }).getByText('Maria Jensen', { exact: true })).toBeVisible();
    await page.screenshot({ path: 'docs/screenshots/upload-request-owner.png', fullPage: true });
  } finally {
    await context.close();
    await phone.close();
    cleanup();
  }
});

test('README screenshots: the contacts page, and a contact suggested while typing a recipient', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: 'light' });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => window.localStorage.setItem('parcel-theme', 'light'));
    await signUp(page, 'Harbour & Co. Solicitors');
    const people: [string, string, string, string, string][] = [
      ['maria.jensen@example.test', 'Maria', 'Jensen', 'Jensen Shipping', '+45 33 12 34 56'],
      ['li.wei@example.test', 'Wei', 'Li', 'Northwind Traders', '+86 10 5555 0101'],
      ['amara.okafor@example.test', 'Amara', 'Okafor', 'Okafor & Partners', '+234 1 555 0199'],
      ['jonas.berg@example.test', 'Jonas', 'Berg', 'Fjord Analytics', ''],
      ['accounts@contoso.example', '', '', 'Contoso Ltd', '+44 20 7946 0000'],
      ['sofia.marquez@example.test', 'Sofía', 'Márquez', 'Jensen Shipping', '+34 91 555 0142'],
    ];
    await page.request.post('/api/dashboard/contacts/import', {
      headers: { origin: new URL(page.url()).origin },
      data: {
        contacts: people.map(([email, firstName, lastName, company, phone]) => ({
          email,
          firstName,
          lastName,
          company,
          phone,
          type: firstName ? 'person' : 'company',
        })),
      },
    });
    await page.goto('/contacts');
    await expect(page.getByRole('table', { name: 'Contacts' }).getByRole('row')).toHaveCount(people.length + 1);
    await page.screenshot({ path: 'docs/screenshots/contacts.png' });

    await page.goto('/transfers/new');
    await page.getByLabel('Recipients').pressSequentially('li.wei@example.test jen');
    await expect(page.getByRole('option')).toHaveCount(2);
    await page.keyboard.press('ArrowDown');
    await page.screenshot({ path: 'docs/screenshots/recipient-suggestions.png', clip: { x: 780, y: 240, width: 440, height: 480 } });
  } finally {
    await context.close();
  }
});
