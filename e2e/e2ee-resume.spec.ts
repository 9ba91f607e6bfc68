import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { deriveLinkKeys, parseLinkFragment } from '../src/crypto';
import { decrypt, encryptionOn, expectNowhere, recordRequestBodies, storedPath } from './e2ee-support';
import { makeFiles, signUp } from './support';
import { sendButton } from './transfer-support';
import { addFile, draftCreated, fetchTransfer, throttleUploads, uploadProgress } from './upload-support';

/**
 * An end-to-end encrypted upload survives its tab (issue 17): the draft, its key and the file's salt
 * are remembered in the browser, and the upload continues in a new tab from where it stopped. Beside
 * e2ee-send.spec.ts so that each file fits its time budget (docs/testing.md).
 */

test('an encrypted upload interrupted by closing the tab resumes in a new one and decrypts to the file', async ({ context, baseURL }) => {
  test.setTimeout(120_000);
  const port = Number(new URL(baseURL!).port);
  // Five 8 MiB requests: once the first has landed (20 %), most of the file is still to come when the tab closes.
  const { files, cleanup } = makeFiles({ 'long-recording.bin': 40 * 1024 * 1024 + 123 });
  const file = files['long-recording.bin']!;
  try {
    const first = await context.newPage();
    await signUp(first);
    await throttleUploads(first, 1024 * 1024);
    await encryptionOn(first);
    if (process.env.E2EE_SCREENSHOTS) await first.screenshot({ path: path.join(os.tmpdir(), 'e2ee-switch.png'), fullPage: true });
    const created = draftCreated(first);
    await addFile(first, file.path);
    const draft = await created;
    await expect.poll(() => uploadProgress(first), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(20);
    await first.close();

    // A new tab: the draft, its key and the file's salt were remembered; adding the file again continues it.
    const second = await context.newPage();
    const requests = recordRequestBodies(second);
    await second.goto('/transfers/new');
    await expect(second.getByRole('heading', { name: 'Resume your unfinished transfer' })).toBeVisible();
    await expect(second.getByRole('switch', { name: 'End-to-end encrypt' })).toBeChecked();
    // The tus PATCHes only (the page also PATCHes the draft's details through the API).
    const patches: number[] = [];
    second.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/files/')) patches.push(Number(request.headers()['upload-offset']));
    });
    await addFile(second, file.path);
    await sendButton(second).click();
    await expect(second.getByRole('heading', { name: 'Your encrypted transfer is ready' })).toBeVisible({ timeout: 60_000 });
    // It continued from where the first tab stopped, not from the start.
    expect(patches[0]).toBeGreaterThan(0);

    const link = new URL(await second.getByRole('textbox', { name: 'Link to share (with its key)' }).inputValue());
    expectNowhere(requests, link.hash.slice('#v1.'.length));
    expectNowhere(requests, 'long-recording.bin');
    const keys = await deriveLinkKeys(parseLinkFragment(link.hash));
    const transfer = await fetchTransfer(second, draft.id);
    const stored = fs.readFileSync(storedPath(port, transfer.files[0]!.id));
    expect((await decrypt(keys, stored, file.bytes.length)).equals(file.bytes)).toBe(true);
    // Sent: the browser forgot the key with the draft.
    expect(await second.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('parcel.send.draft.')))).toEqual([]);
  } finally {
    cleanup();
  }
});
