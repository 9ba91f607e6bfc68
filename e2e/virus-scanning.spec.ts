import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scanningPort } from '../playwright.config';
import { EICAR } from '../src/server/test/clamd';
import { addFromUrl, startOrigin } from './origin-support';
import { signUp } from './support';
import { addFiles, axeInBothThemes, download, expectUploadsFinished, listMail, sendButton, sendTransfer } from './transfer-support';
import { fetchTransfer } from './upload-support';

/**
 * Virus scanning on a server whose worker scans every file with a real clamd (e2e/serve.ts starts
 * one with an EICAR signature of its own): a recipient of a transfer holding the EICAR test file
 * sees it was blocked; a clean transfer downloads once checked; the owner is told. A draft's files
 * are scanned before it is sent: an infected one is shown on the draft page and must be removed.
 */

const baseURL = `http://127.0.0.1:${scanningPort}`;

test('a recipient of a transfer holding the EICAR test file sees it was blocked; a clean one downloads once checked', async ({ browser }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-scan-'));
  const owner = await browser.newContext({ baseURL });
  const recipient = await browser.newContext({ baseURL });
  let closeOrigin = async () => {};
  try {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'Quarterly numbers attached.\n');
    const report = path.join(dir, 'report.txt');
    const reportBytes = Buffer.from('A clean report.\n'.repeat(1000));
    fs.writeFileSync(report, reportBytes);

    const page = await owner.newPage();
    await signUp(page, 'Scanned Studio');
    const cleanLink = await sendTransfer(page, { files: [report], title: 'Clean report' });

    // The transfer is sent while the EICAR file is still being imported from a URL (a draft's files
    // are scanned as soon as they are complete: this one lands after sending); the scan blocks it then.
    const origin = await startOrigin(EICAR, 'invoice.com');
    closeOrigin = origin.close;
    await page.goto('/transfers/new');
    await addFiles(page, [notes]);
    await addFromUrl(page, origin.url('/invoice.com'));
    await expectUploadsFinished(page);
    await page.getByLabel('Title').fill('Quarterly numbers');
    await sendButton(page).click();
    await expect(page).toHaveURL(/\/transfers\/tr_/);
    const transferId = /\/transfers\/(tr_[A-Za-z0-9]+)/.exec(page.url())![1]!;
    const infectedLink = ((await fetchTransfer(page, transferId)) as unknown as { url: string }).url;
    origin.release();

    // The infected transfer: the page is blocked (at once, or as soon as the scan lands while it is open).
    const visitor = await recipient.newPage();
    await visitor.goto(infectedLink);
    await expect(visitor.getByRole('heading', { name: 'This transfer was blocked because a file contained malware' })).toBeVisible({ timeout: 30_000 });
    await expect(visitor.getByText(/A virus scan found malware in one of its files/)).toBeVisible();
    await expect(visitor.getByRole('link', { name: /Download/ })).toHaveCount(0);
    await axeInBothThemes(visitor, 'a blocked transfer');

    // The clean transfer downloads, whole, once checked.
    await visitor.goto(cleanLink);
    const link = visitor.getByRole('link', { name: /^Download report\.txt \(/ });
    await expect(link).toBeVisible({ timeout: 30_000 });
    expect((await download(visitor, link)).bytes.equals(reportBytes)).toBe(true);

    // The owner: the transfer is marked infected with what was found, and one mail says so.
    await page.goto(`/transfers/${transferId}`);
    await expect(page.getByText('A virus scan found malware in a file; every file was deleted.')).toBeVisible();
    await expect(page.getByText('Infected', { exact: true }).first()).toBeVisible();
    await expect(page.getByText(/Test\.EICAR\.HDB\.UNOFFICIAL/)).toBeVisible();
    await expect.poll(async () => (await listMail(page)).filter((m) => m.tag === 'transfer.infected').map((m) => m.subject)).toEqual([
      'Transfer blocked: malware found in invoice.com',
    ]);
    await page.goto('/settings');
    await expect(page.getByText('On: every file is checked for malware before anyone can download it')).toBeVisible();
  } finally {
    await closeOrigin();
    await owner.close();
    await recipient.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a sender whose draft holds the EICAR test file sees it marked on the draft page, cannot send until it is removed, then sends the rest', async ({ browser }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-scan-draft-'));
  const owner = await browser.newContext({ baseURL });
  try {
    const eicar = path.join(dir, 'setup.com');
    fs.writeFileSync(eicar, EICAR);
    const brief = path.join(dir, 'brief.txt');
    fs.writeFileSync(brief, 'The brief, clean.\n');

    const page = await owner.newPage();
    await signUp(page, 'Careful Studio');
    await page.goto('/transfers/new');
    await addFiles(page, [brief, eicar]);
    await expectUploadsFinished(page);

    // The draft's page, from the list of drafts: the scan's verdict shows while it is open.
    await page.goto('/transfers');
    await page.getByRole('region', { name: 'Not sent yet' }).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/transfers\/tr_/);
    const files = page.getByRole('region', { name: 'Files', exact: true });
    const infectedRow = files.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'setup.com', exact: true }) });
    await expect(infectedRow).toContainText('Infected', { timeout: 30_000 });
    await expect(infectedRow).toContainText('Test.EICAR.HDB.UNOFFICIAL');
    const briefRow = files.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'brief.txt', exact: true }) });
    await expect(briefRow).toContainText('Clean');
    const unsent = page.getByRole('region', { name: 'Not sent yet' });
    await expect(unsent).toContainText('1 file contains malware: the transfer cannot be sent until it is removed.');
    await axeInBothThemes(page, 'a draft holding an infected file');

    // Send is refused, saying which file and what to do.
    await unsent.getByRole('button', { name: 'Send now' }).click();
    await expect(unsent.getByRole('alert')).toHaveText('“setup.com” contains malware and cannot be sent: remove it from the transfer, then send it.');
    await expect(page).not.toHaveURL(/sent=true/);

    // Removed, the rest goes out.
    await unsent.getByRole('button', { name: 'Remove setup.com' }).click();
    await expect(infectedRow).toHaveCount(0);
    await expect(unsent.getByRole('alert')).toHaveCount(0);
    await unsent.getByRole('button', { name: 'Send now' }).click();
    await expect(page).toHaveURL(/sent=true/);
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible();
    await expect(files.getByRole('rowheader')).toHaveText(['brief.txt']);
    // The workspace was told once, naming the file.
    await expect.poll(async () => (await listMail(page)).filter((m) => m.tag === 'transfer.infected').map((m) => m.subject)).toEqual([
      'Malware found in setup.com: remove it from your draft',
    ]);
  } finally {
    await owner.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
