import { expect, test } from '@playwright/test';
import { shortTokenPort } from '../playwright.config';
import { makeFiles, signUp } from './support';
import { expectUploadsFinished, personalLinks, sendButton } from './transfer-support';
import {
  addFile,
  crcHex,
  draftCreated,
  fetchTransfer,
  recordUploads,
  sendAndGetLink,
  startDroppableProxy,
  throttleUploads,
  uploadProgress,
} from './upload-support';

/**
 * Resumable uploads as a sender lives them on a bad connection: the tus upload survives the
 * network dropping mid-file, and outlives its upload token by renewing it. Both check the bytes
 * through the CRC-32 the server computed while they arrived.
 */

test('an interrupted upload resumes to completion with a correct CRC-32', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const proxy = await startDroppableProxy(Number(new URL(baseURL!).port));
  const context = await browser.newContext({ baseURL: proxy.url });
  const page = await context.newPage();
  const { files, cleanup } = makeFiles({ 'footage.bin': 12 * 1024 * 1024 });
  const file = files['footage.bin']!;
  const log = recordUploads(page);
  try {
    await signUp(page);
    // A few seconds for the file, so there is time to drop the connection in the middle of it.
    await throttleUploads(page, 2 * 1024 * 1024);
    await page.goto('/transfers/new');

    const created = draftCreated(page);
    await addFile(page, file.path);
    const draft = await created;

    // Bytes are on their way: Uppy reports progress of the (single, whole-file) PATCH.
    await expect.poll(() => uploadProgress(page), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(15);
    const firstPatch = log.tus.find((r) => r.method === 'PATCH')!;
    expect(firstPatch.offset).toBe(0);
    expect(firstPatch.status).toBe('pending');

    proxy.down();
    const cutAt = Date.now();
    // The PATCH in flight fails half-way, and tus's first retry (HEAD, no delay) fails too while the network is down.
    await expect.poll(() => firstPatch.status, { timeout: 15_000 }).toBe('failed');
    await expect.poll(() => log.tus.filter((r) => r.startedAt > cutAt && r.status === 'failed').length, { timeout: 15_000 }).toBeGreaterThan(0);
    proxy.up();

    // tus retries by itself after its back-off; should it have given up, the Dashboard offers Retry.
    const finished = page.getByTestId('upload-status').getByText('The file is uploaded', { exact: false });
    const retry = page.getByRole('button', { name: 'Retry', exact: true });
    await expect(finished.or(retry)).toBeVisible({ timeout: 60_000 });
    if (await retry.isVisible()) await retry.click();
    await expectUploadsFinished(page);

    // It resumed where it stopped: after the drop, HEAD asked for the offset and a PATCH from there (not from 0) was accepted.
    expect(log.tus.some((r) => r.method === 'HEAD' && r.startedAt > cutAt && r.status === 200)).toBe(true);
    const resumed = log.tus.filter((r) => r.method === 'PATCH' && r.startedAt > cutAt);
    expect(resumed.at(-1)?.status).toBe(204);
    expect(resumed.at(-1)!.offset).toBeGreaterThan(0);
    expect(resumed.at(-1)!.offset).toBeLessThan(file.bytes.length);
    expect(log.tus.filter((r) => typeof r.status === 'number' && r.status >= 400)).toEqual([]);

    // Every byte arrived once and in order: the CRC-32 the server computed across both PATCHes is the file's.
    const transfer = await fetchTransfer(page, draft.id);
    expect(transfer.files).toHaveLength(1);
    expect(transfer.files[0]!.sizeBytes).toBe(file.bytes.length);
    expect(transfer.files[0]!.crc32).toBe(crcHex(file.bytes));

    await sendAndGetLink(page);
  } finally {
    // What the uploader did on the wire, for the report of a failed run.
    await test.info().attach('upload requests', { body: JSON.stringify(log, null, 2), contentType: 'application/json' });
    cleanup();
    await context.close();
    await proxy.close();
  }
});

test('an upload outlives its two-hour token through renewal', async ({ browser }) => {
  // ~40 s of throttled upload against a server whose upload tokens live 20 s.
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${shortTokenPort}` });
  const page = await context.newPage();
  const { files, cleanup } = makeFiles({ 'master.wav': 5 * 1024 * 1024 });
  const file = files['master.wav']!;
  const log = recordUploads(page);
  try {
    await signUp(page);
    await throttleUploads(page, 128 * 1024);
    await page.goto('/transfers/new');

    const created = draftCreated(page);
    await addFile(page, file.path);
    const draft = await created;
    const firstToken = draft.files[0]!.uploadToken;
    const firstTokenExpiry = Date.parse(draft.files[0]!.uploadTokenExpiresAt);
    expect(firstTokenExpiry - Date.now()).toBeLessThanOrEqual(20_000);

    // The uploader sends the whole file in one PATCH (no tus chunkSize) and the server checks the
    // token when a request starts, so an uninterrupted upload never needs a second token. So the
    // sender pauses and resumes now and then, as on a flaky connection: each resume is a new HEAD
    // and PATCH that needs a valid token, and the upload gets past the first token's 20 seconds
    // only if the uploader keeps renewing it. Pausing on progress, not on a clock.
    for (const threshold of [20, 40, 60, 80]) {
      await expect.poll(() => uploadProgress(page), { timeout: 60_000, intervals: [200] }).toBeGreaterThanOrEqual(threshold);
      const patches = log.tus.filter((r) => r.method === 'PATCH');
      const inFlight = patches.at(-1)!;
      await page.getByRole('button', { name: 'Pause upload' }).click();
      await expect.poll(() => inFlight.status, { timeout: 10_000 }).toBe('failed');
      await page.getByRole('button', { name: 'Resume upload' }).click();
      // The resumed PATCH is under way before the next pause.
      await expect.poll(() => log.tus.filter((r) => r.method === 'PATCH').length, { timeout: 20_000 }).toBe(patches.length + 1);
    }

    await expectUploadsFinished(page, 90_000);
    const finishedAt = Date.now();
    // The upload took longer than the first token lived.
    expect(finishedAt).toBeGreaterThan(firstTokenExpiry);
    // Renewals happened and all succeeded.
    expect(log.renewals.length).toBeGreaterThan(0);
    expect(log.renewals.every((r) => r.status === 200)).toBe(true);
    const renewedTokens = new Set(log.renewals.map((r) => r.uploadToken));
    // After the first token expired, the upload carried on with renewed tokens, and the server took them.
    const late = log.tus.filter((r) => r.startedAt > firstTokenExpiry + 1000);
    expect(late.some((r) => r.method === 'PATCH')).toBe(true);
    for (const request of late) {
      expect(request.token).not.toBe(firstToken);
      expect(renewedTokens.has(request.token)).toBe(true);
    }
    const lastPatch = log.tus.filter((r) => r.method === 'PATCH').at(-1)!;
    expect(lastPatch.startedAt).toBeGreaterThan(firstTokenExpiry);
    expect(lastPatch.offset).toBeGreaterThan(0);
    expect(lastPatch.status).toBe(204);
    // No tus request was refused (no 401 from an expired token, no 409 from a lost offset).
    expect(log.tus.filter((r) => typeof r.status === 'number' && r.status >= 400)).toEqual([]);
    // The token the draft was created with is dead now: the server really enforced the 20 seconds.
    const stale = await page.request.post('/api/uploads/token', { headers: { 'x-service-upload-token': firstToken } });
    expect(stale.status()).toBe(401);

    const transfer = await fetchTransfer(page, draft.id);
    expect(transfer.files[0]!.crc32).toBe(crcHex(file.bytes));
    const link = await sendAndGetLink(page);
    expect(link).toContain(`http://127.0.0.1:${shortTokenPort}/`);
  } finally {
    // What the uploader did on the wire, for the report of a failed run.
    await test.info().attach('upload requests', { body: JSON.stringify(log, null, 2), contentType: 'application/json' });
    cleanup();
    await context.close();
  }
});

test('a file uploaded before the tab was closed shows as uploaded, is recognised when added again, and the draft sends', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  let page = await context.newPage();
  const { files, cleanup } = makeFiles({ 'contract.pdf': 300_000 });
  const file = files['contract.pdf']!;
  try {
    await signUp(page);
    await page.goto('/transfers/new');
    const created = draftCreated(page);
    await addFile(page, file.path);
    const draft = await created;
    await page.getByLabel('Title').fill('Signed contract');
    await page.getByLabel('Recipients').fill('grace@example.test, ');
    await expectUploadsFinished(page);
    // The details reach the draft as they are typed: the transfers list shows what the form shows.
    await expect.poll(async () => ((await fetchTransfer(page, draft.id)) as { title?: string | null }).title).toBe('Signed contract');

    // The tab is closed; the sender comes back to New transfer in the same browser.
    await page.close();
    page = await context.newPage();
    await page.goto('/transfers');
    const row = page.getByRole('region', { name: 'Not sent yet' }).getByRole('listitem').filter({ hasText: 'Signed contract' });
    await expect(row).toContainText('grace@example.test');

    const log = recordUploads(page);
    await page.goto('/transfers/new');
    const earlier = page.getByRole('list', { name: 'Uploaded in your earlier visit' });
    await expect(earlier.getByRole('listitem')).toHaveText([/contract\.pdf.*Uploaded/]);
    await expect(page.getByLabel('Title')).toHaveValue('Signed contract');
    await expect(page.getByRole('list', { name: 'Will be emailed' }).getByRole('listitem')).toHaveText(['grace@example.test']);

    // The same file (name, size, last change) added again is that file: done, not uploaded again, not registered twice.
    await addFile(page, file.path);
    await expectUploadsFinished(page);
    await expect(page.getByTestId('upload-status')).toHaveText(/The file is uploaded/);
    await expect(earlier).toHaveCount(0);
    expect(log.tus.filter((r) => r.method === 'POST' || (typeof r.status === 'number' && r.status >= 400))).toEqual([]);
    expect((await fetchTransfer(page, draft.id)).files).toHaveLength(1);

    await sendButton(page).click();
    await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible({ timeout: 30_000 });
    expect(Object.keys(await personalLinks(page, ['grace@example.test']))).toEqual(['grace@example.test']);
  } finally {
    cleanup();
    await context.close();
  }
});
