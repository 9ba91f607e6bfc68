import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  createEncryptedSource,
  deriveLinkKeys,
  linkFragment,
  newLinkKey,
  newSalt,
  sealFileMeta,
  sealThumbnail,
  sealTransferMeta,
  ciphertextSize,
} from '../src/crypto';
import { formatBytes } from '../src/contract/units';
import { recordRequests, savedFile, stubFilePicker } from './e2ee-support';
import { signUp } from './support';
import { download, scratchDir, unzipAll } from './transfer-support';

/**
 * The receiving half of an end-to-end encrypted transfer (issue 17). The transfer is made by this test process
 * through the real API, encrypted with src/crypto in Node (two files, one in a folder, one with a thumbnail),
 * then opened in Chromium from its link: names and thumbnail decrypted in the page, one file and the zip saved
 * through the File System Access API (stubbed: a writable that keeps the bytes) and through the download
 * service worker (a real download), a damaged key refused, and the key in no request the page makes.
 */

/** A 1×1 PNG: the thumbnail the sender would have made. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface Sent {
  link: string;
  secret: string;
  slug: string;
  files: Record<string, Buffer>;
}

/** Sends an encrypted transfer as the sending page would, but from here: create, tus upload of the containers, sealed metadata, finalize. */
async function sendEncrypted(request: APIRequestContext, token: string, baseURL: string): Promise<Sent> {
  const auth = { authorization: `Bearer ${token}` };
  const files: Record<string, Buffer> = {
    // Over two container chunks (1 MiB each), so the stream crosses chunk edges.
    'quarterly report.bin': randomBytes(2 * 1024 * 1024 + 12_345),
    'photos/b.png': Buffer.concat([PNG, randomBytes(40_000)]),
  };
  const key = newLinkKey();
  const keys = await deriveLinkKeys(key);
  const names = Object.keys(files);
  const created = await request.post('/api/v1/transfers', {
    headers: auth,
    data: {
      e2ee: true,
      // The server learns sizes and nothing else: names and types are sealed.
      files: names.map((_, i) => ({ name: `file-${i + 1}`, size: ciphertextSize(files[names[i]!]!.length), mimeType: 'application/octet-stream' })),
    },
  });
  expect(created.status()).toBe(201);
  const draft = (await created.json()) as { id: string; slug: string; tusEndpoint: string; files: { id: string; uploadToken: string; size: number }[] };

  const manifest: { id: string; salt: Uint8Array; size: number }[] = [];
  for (const [i, name] of names.entries()) {
    const plain = files[name]!;
    const target = draft.files[i]!;
    const salt = newSalt();
    const source = await createEncryptedSource(keys.content, { size: plain.length, read: async (start, end) => plain.subarray(start, end) }, { salt });
    const container = Buffer.from(await source.read(0, source.size));
    expect(container.length).toBe(target.size);
    const tus = { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': target.uploadToken };
    const upload = await request.post(draft.tusEndpoint, { headers: { ...tus, 'Upload-Length': String(container.length) } });
    expect(upload.status()).toBe(201);
    const location = new URL(upload.headers()['location']!, baseURL).toString();
    const patch = await request.patch(location, { headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, data: container });
    expect(patch.status()).toBe(204);
    const meta = await sealFileMeta(keys, draft.id, target.id, { name, type: name.endsWith('.png') ? 'image/png' : 'application/octet-stream', size: plain.length, salt });
    const thumb = name.endsWith('.png') ? await sealThumbnail(keys, draft.id, target.id, PNG) : '';
    const sealed = await request.post(`/api/v1/transfers/${draft.id}/files/${target.id}/sealed`, { headers: auth, data: { meta, thumb } });
    expect(sealed.status()).toBe(200);
    manifest.push({ id: target.id, salt, size: plain.length });
  }
  const e2eeMeta = await sealTransferMeta(keys, draft.id, { manifest, note: { title: 'Board papers', message: 'For your eyes only.' } });
  const finalized = await request.post(`/api/v1/transfers/${draft.id}/finalize`, { headers: auth, data: { e2eeMeta } });
  expect(finalized.ok()).toBe(true);
  const fragment = linkFragment(key);
  return { link: `/t/${draft.slug}#${fragment}`, secret: fragment.slice(3), slug: draft.slug, files };
}

let sent: Sent;

test.beforeAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage();
  await signUp(page, 'Cipher & Co');
  const tokenResponse = await page.request.post('/api/dashboard/token');
  expect(tokenResponse.status()).toBe(200);
  const { accessToken } = (await tokenResponse.json()) as { accessToken: string };
  sent = await sendEncrypted(page.request, accessToken, baseURL!);
  await page.close();
});

test('decrypts the names, note and thumbnail, and saves a file and the zip through the file picker; no request carries the key', async ({ page, context }) => {
  const requests = recordRequests(context);
  await stubFilePicker(page);
  await page.goto(sent.link);

  await expect(page.getByRole('heading', { level: 1, name: 'Board papers' })).toBeVisible();
  await expect(page.getByText('For your eyes only.')).toBeVisible();
  const rows = page.getByRole('region', { name: 'Files' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('quarterly report.bin');
  await expect(rows.nth(1)).toContainText('b.png');
  await expect(rows.nth(1)).toContainText('photos/');
  const thumbnail = page.getByRole('region', { name: 'Previews' }).getByRole('img', { name: 'b.png' });
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  if (process.env.E2EE_SCREENSHOTS) {
    for (const [viewport, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        // Let the buttons' colour transitions finish.
        await page.waitForTimeout(400);
        await page.screenshot({ path: `${os.tmpdir()}/e2ee-receive-${viewport}-${scheme}.png`, fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  await page.getByRole('button', { name: 'Download quarterly report.bin' }).click();
  expect((await savedFile(page, 'quarterly report.bin')).equals(sent.files['quarterly report.bin']!)).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'quarterly report.bin was decrypted and saved.' })).toBeVisible();

  await page.getByRole('button', { name: /^Download all/ }).click();
  const zip = await savedFile(page, 'Board papers.zip');
  const zipPath = path.join(scratchDir('zip'), 'all.zip');
  fs.writeFileSync(zipPath, zip);
  const unzipped = unzipAll(zipPath);
  expect(Object.keys(unzipped).sort()).toEqual(Object.keys(sent.files).sort());
  for (const [name, bytes] of Object.entries(sent.files)) expect(unzipped[name]!.equals(bytes)).toBe(true);
  await expect(page.getByRole('button', { name: /^Download all/ })).toContainText(`(${formatBytes(zip.length)} zip)`);

  expect(requests.some((r) => r.includes('/dl/'))).toBe(true);
  for (const request of requests) expect(request).not.toContain(sent.secret);
});

test('saves through the download service worker where the browser has no file picker', async ({ page, context }) => {
  const requests = recordRequests(context);
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto(sent.link);
  await expect(page.getByRole('heading', { level: 1, name: 'Board papers' })).toBeVisible();

  const one = await download(page, page.getByRole('button', { name: 'Download quarterly report.bin' }));
  expect(one.download.suggestedFilename()).toBe('quarterly report.bin');
  expect(one.bytes.equals(sent.files['quarterly report.bin']!)).toBe(true);

  await expect(page.getByRole('button', { name: /^Download all/ })).toBeEnabled();
  const zip = await download(page, page.getByRole('button', { name: /^Download all/ }));
  expect(zip.download.suggestedFilename()).toBe('Board papers.zip');
  const unzipped = unzipAll(zip.file);
  for (const [name, bytes] of Object.entries(sent.files)) expect(unzipped[name]!.equals(bytes)).toBe(true);

  expect(requests.some((r) => r.includes('/e2ee-download-sw.js'))).toBe(true);
  for (const request of requests) expect(request).not.toContain(sent.secret);
});

test('saves through the worker chunk by chunk where a stream cannot be handed to it (older Firefox and Safari)', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    // As a browser without transferable streams answers: a DataCloneError for any ReadableStream in the transfer list.
    for (const proto of [MessagePort.prototype, ServiceWorker.prototype] as { postMessage: (message: unknown, transfer?: Transferable[]) => void }[]) {
      const post = proto.postMessage;
      proto.postMessage = function (this: unknown, message: unknown, transfer?: Transferable[]) {
        if (Array.isArray(transfer) && transfer.some((t) => t instanceof ReadableStream)) throw new DOMException('ReadableStream could not be cloned', 'DataCloneError');
        return post.call(this, message, transfer);
      };
    }
  });
  await page.goto(sent.link);
  await expect(page.getByRole('heading', { level: 1, name: 'Board papers' })).toBeVisible();
  const one = await download(page, page.getByRole('button', { name: 'Download quarterly report.bin' }));
  expect(one.bytes.equals(sent.files['quarterly report.bin']!)).toBe(true);
});

test('a link with one character of its key changed says the key is wrong and starts no visit', async ({ page, context }) => {
  const requests = recordRequests(context);
  const at = sent.link.indexOf('#v1.') + 4 + 20;
  const damaged = `${sent.link.slice(0, at)}${sent.link[at] === 'A' ? 'B' : 'A'}${sent.link.slice(at + 1)}`;
  await page.goto(damaged);
  await expect(page.getByRole('heading', { level: 1, name: "This link's key is wrong" })).toBeVisible();
  await expect(page.getByText('quarterly report.bin')).toHaveCount(0);
  expect(requests.filter((r) => r.includes('/sessions'))).toHaveLength(0);
  expect(requests.filter((r) => r.includes('/dl/'))).toHaveLength(0);

  if (process.env.E2EE_SCREENSHOTS) {
    for (const [viewport, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        // Let the buttons' colour transitions finish.
        await page.waitForTimeout(400);
        await page.screenshot({ path: `${os.tmpdir()}/e2ee-wrong-key-${viewport}-${scheme}.png`, fullPage: true });
      }
    }
  }
});

test('a file changed on the way is refused: the picked file is discarded, the worker download fails, and the page says why', async ({ page }) => {
  // The server (or anything between) flips one byte in the middle of every container it sends.
  await page.route('**/dl/**', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    body[Math.floor(body.length / 2)]! ^= 1;
    await route.fulfill({ response, body });
  });
  await stubFilePicker(page);
  await page.goto(sent.link);
  await page.getByRole('button', { name: 'Download quarterly report.bin' }).click();
  await expect(page.getByRole('alert')).toContainText('quarterly report.bin could not be decrypted');
  expect(await page.evaluate(() => (window as unknown as { __saved: Record<string, { state: string }> }).__saved['quarterly report.bin']?.state)).toBe('aborted');

  await page.evaluate(() => delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker);
  const [started] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download all/ }).click()]);
  expect(await started.failure()).not.toBeNull();
  await expect(page.getByRole('alert')).toContainText('Board papers.zip could not be decrypted');
});
