import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  deriveLinkKeys,
  openFileMeta,
  openTransferMeta,
  parseLinkFragment,
  plaintextSize,
} from '../src/crypto';
import { decrypt, encryptionOn, expectNowhere, recordRequestBodies, storedPath } from './e2ee-support';
import { makeFiles, signUp } from './support';
import { addFiles, addFolder, download, sendButton, unzipAll } from './transfer-support';
import { addFile, draftCreated, fetchTransfer } from './upload-support';

/**
 * The sending half of end-to-end encrypted transfers (issue 17), in Chromium against the real server: every
 * request the page makes is recorded and searched for the link key and the plaintext names; the server's stored
 * bytes are read from its data directory and decrypted here with src/crypto.
 */

test('an encrypted transfer sends no key and no plaintext name, and its stored bytes decrypt to the files', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const port = Number(new URL(baseURL!).port);
  const { dir, files, cleanup } = makeFiles({
    'alpha-report.bin': 300_000,
    'beta-footage.bin': 2 * 1024 * 1024 + 5,
    'gallery-folder/first-photo.bin': 70_000,
    'gallery-folder/second-photo.bin': 0,
  });
  const requests = recordRequestBodies(page);
  try {
    await signUp(page);
    await encryptionOn(page);
    await page.getByLabel('Title').fill('Quarterly figures');
    await page.getByLabel('Message').fill('Private words for Grace');
    await page.getByLabel('Recipients').fill('grace@example.com ');
    await expect(page.getByRole('textbox', { name: 'Password' })).toHaveCount(0);

    const created = draftCreated(page);
    await addFiles(page, [files['alpha-report.bin']!.path, files['beta-footage.bin']!.path]);
    const draft = await created;
    await addFolder(page, path.join(dir, 'gallery-folder'));
    await expect(page.getByRole('switch', { name: 'End-to-end encrypt' })).toBeDisabled();
    // Pressed while files may still be uploading: it goes out once they are up and sealed.
    await sendButton(page).click();
    await expect(page.getByRole('heading', { name: 'Your encrypted transfer is ready' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText('Save this link now: it is the only way to open these files.')).toBeVisible();

    const link = await page.getByRole('textbox', { name: 'Link to share (with its key)' }).inputValue();
    const url = new URL(link);
    expect(url.hash).toMatch(/^#v1\.[A-Za-z0-9_-]{43}$/);
    const keyText = url.hash.slice('#v1.'.length);
    await expect(page.getByRole('img', { name: 'QR code for the link with its key' })).toBeVisible();
    const mailto = await page.getByRole('link', { name: 'Email the link to 1 recipient' }).getAttribute('href');
    expect(mailto).toMatch(/^mailto:grace@example\.com\?subject=/);
    expect(decodeURIComponent(mailto!.split('&body=')[1]!)).toContain(link);

    // Nothing the page sent carries the key, the plaintext names, the title, the message or the recipient.
    const names = ['alpha-report.bin', 'beta-footage.bin', 'first-photo.bin', 'second-photo.bin', 'gallery-folder'];
    for (const secret of [keyText, url.hash.slice(1), ...names, 'Quarterly figures', 'Private words for Grace', 'grace@example.com']) {
      expectNowhere(requests, secret);
    }

    // The server holds neutral names and ciphertext; the key opens the names, the note and every file's bytes.
    const transfer = await fetchTransfer(page, draft.id);
    expect(transfer.files).toHaveLength(4);
    for (const file of transfer.files) expect(names).not.toContain(file.name);
    const keys = await deriveLinkKeys(parseLinkFragment(url.hash));
    const shared = (await (await page.request.get(`/api/public/transfers/${url.pathname.split('/').pop()}`)).json()) as {
      transferId: string;
      e2eeMeta: string;
      files: { id: string; sealedMeta: string }[];
    };
    const meta = await openTransferMeta(keys, shared.transferId, shared.e2eeMeta);
    expect(meta.note).toEqual({ title: 'Quarterly figures', message: 'Private words for Grace' });
    expect(meta.manifest.map((entry) => entry.id).sort()).toEqual(transfer.files.map((f) => f.id).sort());
    const byName = new Map(Object.entries(files).map(([name, file]) => [name, file.bytes]));
    const opened: string[] = [];
    for (const file of shared.files) {
      const fileMeta = await openFileMeta(keys, shared.transferId, file.id, file.sealedMeta);
      opened.push(fileMeta.name);
      const stored = fs.readFileSync(storedPath(port, file.id));
      const original = byName.get(fileMeta.name)!;
      expect(plaintextSize(stored.length)).toBe(original.length);
      if (original.length > 0) expect(stored.includes(original.subarray(0, 64))).toBe(false);
      expect((await decrypt(keys, stored, fileMeta.size)).equals(original)).toBe(true);
    }
    expect(opened.sort()).toEqual(Object.keys(files).sort());

    // A recipient in another browser opens the link: names decrypted there, a file and the zip saved whole.
    const recipient = await page.context().browser()!.newContext({ baseURL });
    try {
      const visitor = await recipient.newPage();
      await visitor.addInitScript(() => {
        delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
      });
      await visitor.goto(link);
      await expect(visitor.getByRole('heading', { level: 1, name: 'Quarterly figures' })).toBeVisible({ timeout: 30_000 });
      await expect(visitor.getByText('Private words for Grace')).toBeVisible();
      const one = await download(visitor, visitor.getByRole('button', { name: 'Download beta-footage.bin' }));
      expect(one.bytes.equals(files['beta-footage.bin']!.bytes)).toBe(true);
      const zip = await download(visitor, visitor.getByRole('button', { name: /^Download all/ }));
      const unzipped = unzipAll(zip.file);
      for (const [name, file] of Object.entries(files)) expect(unzipped[name]?.equals(file.bytes), name).toBe(true);
    } finally {
      await recipient.close();
    }

    if (process.env.E2EE_SCREENSHOTS) {
      for (const [viewport, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ['light', 'dark'] as const) {
          await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
          await page.screenshot({ path: `${os.tmpdir()}/e2ee-sent-${viewport}-${scheme}.png`, fullPage: true });
        }
      }
    }
  } finally {
    cleanup();
  }
});

test('an encrypted transfer offers no Copy link, says why, and the sender tells several apart by labels kept in the browser', async ({ page }) => {
  test.setTimeout(120_000);
  const { files, cleanup } = makeFiles({ 'contract.bin': 40_000, 'photo.bin': 60_000 });
  const requests = recordRequestBodies(page);
  try {
    await signUp(page);
    // The first: its title (sealed for recipients) names it in this browser.
    await encryptionOn(page);
    await page.getByLabel('Title').fill('Contracts for Ada');
    await addFile(page, files['contract.bin']!.path);
    await sendButton(page).click();
    await expect(page.getByRole('heading', { name: 'Your encrypted transfer is ready' })).toBeVisible({ timeout: 60_000 });
    // The second: no title.
    await page.getByRole('button', { name: 'Send another' }).click();
    await expect(page.getByRole('switch', { name: 'End-to-end encrypt' })).toBeChecked();
    await addFile(page, files['photo.bin']!.path);
    await sendButton(page).click();
    await expect(page.getByRole('heading', { name: 'Your encrypted transfer is ready' })).toBeVisible({ timeout: 60_000 });

    await page.goto('/transfers');
    const rows = page.getByRole('list').filter({ has: page.getByRole('link', { name: 'Contracts for Ada' }) }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      await expect(row.getByRole('button', { name: /Copy link/ })).toHaveCount(0);
      await expect(row).toContainText('No link to copy: its key was shown once, in the browser that sent it.');
    }

    // The unnamed one gets a label on its page: no link or QR code there either, and why.
    await page.getByRole('link', { name: 'End-to-end encrypted transfer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'End-to-end encrypted transfer' })).toBeVisible();
    await expect(page.getByText(/was shown once, in the\s+browser that sent it/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Transfer link' })).toHaveCount(0);
    await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
    await page.getByLabel('Label', { exact: true }).fill('Photos for Lin');
    await page.getByLabel('Label', { exact: true }).press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Photos for Lin' })).toBeVisible();

    // Kept in this browser across reloads, and both told apart in the list.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos for Lin' })).toBeVisible();
    await page.goto('/transfers');
    await expect(page.getByRole('link', { name: 'Photos for Lin' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Contracts for Ada' })).toBeVisible();
    // Never sent to the service.
    expectNowhere(requests, 'Photos for Lin');
    expectNowhere(requests, 'Contracts for Ada');
  } finally {
    cleanup();
  }
});
