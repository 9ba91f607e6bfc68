import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { contents, optionNames, tool, uploadToCollection, writeImage } from './collection-support';
import { recordRequests, savedFile, stubFilePicker } from './e2ee-support';
import { makeFiles, screenshotsInBothThemes, signUp } from './support';
import { expectNoSeriousA11yViolations } from './transfer-support';

/**
 * The vault (issue 18) in Chromium against the real server: created with a passphrase and a saved recovery code,
 * a folder with an image uploaded by the folder picker, locked and unlocked (names and the thumbnail decrypted
 * again), a file downloaded by streaming decryption with its bytes checked, the passphrase changed, and the vault
 * recovered with the recovery code. Every request the browser made is searched afterwards: no passphrase, no
 * recovery code and no file or folder name ever left it.
 */

const FIRST = 'lantern orbit cactus meadow';
const SECOND = 'velvet harbour quietly juggles';
const RECOVERED = 'copper kettle midnight swallow';

async function unlock(page: Page, passphrase: string) {
  await expect(page.getByRole('heading', { name: 'Your vault is locked' })).toBeVisible();
  await page.getByLabel('Vault passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

const lock = (page: Page) => page.getByRole('button', { name: 'Lock', exact: true }).click();

const screenshots = (page: Page, name: string) => screenshotsInBothThemes(page, `vault-${name}`, 'VAULT_SCREENSHOTS');

test('create, upload a folder, lock, unlock, download, change the passphrase and recover; nothing secret leaves the browser', async ({ page, context }) => {
  test.setTimeout(180_000);
  const requests = recordRequests(context);
  await stubFilePicker(page);
  const { dir, files, cleanup } = makeFiles({ 'Holiday plans/notes/itinerary-secret.txt': 1_500_000 });
  const photo = await writeImage(path.join(dir, 'Holiday plans', 'beach-sunset.png'), 640, 480, '#e07a3f');
  try {
    await signUp(page, 'Vault Owners');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click();

    // Create: the warning first, a weak passphrase refused, then the recovery code, shown once.
    await expect(page.getByRole('heading', { name: 'Create your vault' })).toBeVisible();
    await expect(page.getByText('There is no “forgot passphrase”.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'create a vault');
    await page.getByLabel('Vault passphrase', { exact: true }).fill('password123');
    await page.getByLabel('Vault passphrase, again').fill('password123');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText(/Weak: easy to guess|Too short/).first()).toBeVisible();
    await page.getByLabel('Vault passphrase', { exact: true }).fill(FIRST);
    await page.getByLabel('Vault passphrase, again').fill(FIRST);
    await expect(page.getByRole('meter', { name: 'Passphrase strength' })).toHaveAttribute('aria-valuetext', /Good|Strong/);
    await screenshots(page, 'create');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('heading', { name: 'Save your recovery code' })).toBeVisible({ timeout: 30_000 });
    const recoveryCode = (await page.getByTestId('recovery-code').textContent())!.trim();
    expect(recoveryCode).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){13}[0-9A-HJKMNP-TV-Z]{4}$/);
    await expectNoSeriousA11yViolations(page, 'the recovery code');
    await screenshots(page, 'recovery-code');
    const create = page.getByRole('button', { name: 'Create my vault' });
    await expect(create).toBeDisabled();
    await page.getByLabel(/I have saved my recovery code/).check();
    await create.click();

    // Upload a folder with an image and a subfolder, by the folder picker.
    await expect(page.getByText('Nothing here yet.')).toBeVisible();
    await uploadToCollection(page, { folder: path.join(dir, 'Holiday plans') }, 2);
    await expect.poll(() => optionNames(contents(page, 'Vault'))).toEqual(['Holiday plans']);
    await contents(page, 'Vault').getByRole('option', { name: 'Holiday plans' }).dblclick();
    await expect.poll(() => optionNames(contents(page, 'Holiday plans'))).toEqual(['notes', 'beach-sunset.png']);
    await expect(contents(page, 'Holiday plans').getByRole('option', { name: 'beach-sunset.png' }).locator('img')).toHaveAttribute('src', /^blob:/, {
      timeout: 15_000,
    });

    // Lock and unlock: names and the thumbnail come back from what the server keeps.
    await lock(page);
    await expect(page.getByText('beach-sunset.png')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'the locked vault');
    await screenshots(page, 'locked');
    await unlock(page, FIRST);
    await expect.poll(() => optionNames(contents(page, 'Holiday plans'))).toEqual(['notes', 'beach-sunset.png']);
    const thumbnail = contents(page, 'Holiday plans').getByRole('option', { name: 'beach-sunset.png' }).locator('img');
    await expect(thumbnail).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.getByRole('button', { name: 'Grid' }).click();
    await expectNoSeriousA11yViolations(page, 'the vault browser');
    await screenshots(page, 'browser');
    await page.getByRole('button', { name: 'List' }).click();

    // Download: the image, decrypted as it streams into the (stubbed) file picker.
    await contents(page, 'Holiday plans').getByRole('option', { name: 'beach-sunset.png' }).click();
    await tool(page, 'Download').click();
    expect((await savedFile(page, 'beach-sunset.png')).equals(photo)).toBe(true);
    // And the larger file, over a chunk edge of the container.
    await contents(page, 'Holiday plans').getByRole('option', { name: 'notes' }).dblclick();
    await contents(page, 'notes').getByRole('option', { name: 'itinerary-secret.txt' }).click();
    await tool(page, 'Download').click();
    expect((await savedFile(page, 'itinerary-secret.txt')).equals(files['Holiday plans/notes/itinerary-secret.txt']!.bytes)).toBe(true);

    // Sent on as an encrypted transfer without downloading it: re-encrypted in the page under a new link key.
    await tool(page, 'Send').click();
    const send = page.getByRole('dialog', { name: 'Send “itinerary-secret.txt” end-to-end encrypted' });
    await send.getByLabel('Title (optional)').fill('Trip itinerary');
    await expectNoSeriousA11yViolations(page, 'sending from the vault');
    await send.getByRole('button', { name: 'Make the link' }).click();
    const ready = page.getByRole('dialog', { name: 'Your encrypted transfer is ready' });
    const link = await ready.getByRole('textbox', { name: 'Link to share (with its key)' }).inputValue({ timeout: 30_000 });
    expect(link).toMatch(/\/t\/[A-Za-z0-9_-]+#v1\./);
    const recipient = await context.newPage();
    await stubFilePicker(recipient);
    await recipient.goto(link);
    await expect(recipient.getByRole('heading', { level: 1, name: 'Trip itinerary' })).toBeVisible();
    await recipient.getByRole('button', { name: 'Download itinerary-secret.txt', exact: true }).click();
    expect((await savedFile(recipient, 'itinerary-secret.txt')).equals(files['Holiday plans/notes/itinerary-secret.txt']!.bytes)).toBe(true);
    await recipient.close();
    await ready.getByRole('button', { name: 'Send another' }).click();

    // Search runs over the decrypted names, here.
    await page.getByRole('searchbox', { name: 'Search your vault by name' }).fill('sunset');
    await expect.poll(() => optionNames(page.getByRole('listbox', { name: 'Search results for “sunset”' }))).toEqual(['beach-sunset.png']);
    await page.getByRole('searchbox', { name: 'Search your vault by name' }).fill('');

    // A new folder, a rename and a move by the folder picker, and a delete: every name sealed before it is sent.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Vault' }).click();
    const top = contents(page, 'Vault');
    await tool(page, 'New folder').click();
    const newFolder = page.getByRole('dialog', { name: 'New folder in “Vault”' });
    await newFolder.getByLabel('Folder name').fill('Best of summer');
    await newFolder.getByRole('button', { name: 'Create folder' }).click();
    await expect.poll(() => optionNames(top)).toEqual(['Best of summer', 'Holiday plans']);
    await top.getByRole('option', { name: 'Holiday plans' }).dblclick();
    await contents(page, 'Holiday plans').getByRole('option', { name: 'beach-sunset.png' }).click();
    await tool(page, 'Rename').click();
    const rename = page.getByRole('dialog', { name: 'Rename “beach-sunset.png”' });
    await rename.getByLabel('New name').fill('golden-hour.png');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => optionNames(contents(page, 'Holiday plans'))).toEqual(['notes', 'golden-hour.png']);
    await tool(page, 'Move').click();
    const move = page.getByRole('dialog', { name: 'Move “golden-hour.png”' });
    await move.getByRole('listbox', { name: 'Destination folder' }).getByRole('option', { name: 'Best of summer', exact: true }).click();
    await move.getByRole('button', { name: 'Move here' }).click();
    await expect.poll(() => optionNames(contents(page, 'Holiday plans'))).toEqual(['notes']);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Vault' }).click();
    await top.getByRole('option', { name: 'Best of summer' }).dblclick();
    await expect.poll(() => optionNames(contents(page, 'Best of summer'))).toEqual(['golden-hour.png']);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Vault' }).click();
    await top.getByRole('option', { name: 'Best of summer' }).click();
    await tool(page, 'Delete').click();
    await page.getByRole('alertdialog', { name: 'Delete “Best of summer”?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => optionNames(top)).toEqual(['Holiday plans']);
    await top.getByRole('option', { name: 'Holiday plans' }).dblclick();
    await contents(page, 'Holiday plans').getByRole('option', { name: 'notes' }).dblclick();

    // A new passphrase: the old one stops working, the new one opens the same files.
    await page.getByRole('button', { name: 'Change passphrase' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change your vault passphrase' });
    await dialog.getByLabel('Current passphrase').fill(FIRST);
    await dialog.getByLabel('New passphrase', { exact: true }).fill(SECOND);
    await dialog.getByLabel('New passphrase, again').fill(SECOND);
    await dialog.getByRole('button', { name: 'Change passphrase' }).click();
    await expect(dialog.getByText('Your vault passphrase was changed.')).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await lock(page);
    await unlock(page, FIRST);
    await expect(page.getByText('This passphrase does not open the vault.')).toBeVisible({ timeout: 30_000 });
    await unlock(page, SECOND);
    await expect(contents(page, 'notes')).toBeVisible({ timeout: 30_000 });

    // Recovery: the code and a new passphrase, then the new passphrase works after a lock.
    await lock(page);
    await page.getByRole('button', { name: 'Forgot it? Use your recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCode.toLowerCase().replace(/-/g, ' '));
    await page.getByLabel('New vault passphrase', { exact: true }).fill(RECOVERED);
    await page.getByLabel('New vault passphrase, again').fill(RECOVERED);
    await expectNoSeriousA11yViolations(page, 'recovering the vault');
    await page.getByRole('button', { name: 'Recover and unlock' }).click();
    await expect(contents(page, 'notes')).toBeVisible({ timeout: 30_000 });
    await lock(page);
    await unlock(page, RECOVERED);
    await expect.poll(() => optionNames(contents(page, 'notes'))).toEqual(['itinerary-secret.txt']);

    // Nothing the server (or anyone on the way) saw holds a passphrase, the code or a name.
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const names = ['beach-sunset', 'golden-hour', 'itinerary-secret', 'Holiday plans', 'Holiday%20plans', 'Best of summer', 'Best%20of%20summer'];
    const secrets = [FIRST, SECOND, RECOVERED, recoveryCode, recoveryCode.replace(/-/g, ''), ...names];
    const encoded = ['beach-sunset.png', 'golden-hour.png', 'itinerary-secret.txt', 'Holiday plans', 'Best of summer'].map(base64);
    expect(requests.some((r) => r.includes('/api/dashboard/vault/items'))).toBe(true);
    expect(requests.some((r) => r.includes('PATCH ') && r.includes('/files/'))).toBe(true);
    for (const request of requests) {
      for (const secret of [...secrets, ...encoded]) expect(request, `a request carried ${secret}`).not.toContain(secret);
    }
  } finally {
    cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
