import net, { type AddressInfo } from 'node:net';
import { crc32 } from '@node-rs/crc32';
import { expect, type CDPSession, type Page, type Request } from '@playwright/test';
import { expectUploadsFinished } from './transfer-support';

/** CRC-32 (IEEE) as the API reports it: 8 lower-case hex digits. */
export const crcHex = (bytes: Buffer) => (crc32(bytes) >>> 0).toString(16).padStart(8, '0');

/** Throttles the page's uploads (bytes per second) through the DevTools protocol; downloads stay fast. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return cdp;
}

export interface TusRequestLog {
  method: string;
  url: string;
  token: string | undefined;
  offset: number | undefined;
  startedAt: number;
  status: number | 'failed' | 'pending';
  failure?: string;
}

/**
 * Records every tus request (/files/…) and every upload-token renewal of a page, with the token it
 * carried and how it ended, so a test can tell what the uploader actually did on the wire.
 */
export function recordUploads(page: Page) {
  const tus: TusRequestLog[] = [];
  const renewals: { status: number; uploadToken?: string; expiresAt?: string }[] = [];
  const byRequest = new Map<Request, TusRequestLog>();
  const isTus = (url: string) => new URL(url).pathname.startsWith('/files');

  page.on('request', (request) => {
    if (!isTus(request.url()) || request.method() === 'OPTIONS') return;
    const headers = request.headers();
    const entry: TusRequestLog = {
      method: request.method(),
      url: request.url(),
      token: headers['x-service-upload-token'],
      offset: headers['upload-offset'] === undefined ? undefined : Number(headers['upload-offset']),
      startedAt: Date.now(),
      status: 'pending',
    };
    tus.push(entry);
    byRequest.set(request, entry);
  });
  page.on('requestfailed', (request) => {
    const entry = byRequest.get(request);
    if (entry) {
      entry.status = 'failed';
      entry.failure = request.failure()?.errorText;
    }
  });
  page.on('response', async (response) => {
    const entry = byRequest.get(response.request());
    if (entry) entry.status = response.status();
    if (new URL(response.url()).pathname === '/api/uploads/token' && response.request().method() === 'POST') {
      const record: (typeof renewals)[number] = { status: response.status() };
      renewals.push(record);
      if (response.ok()) Object.assign(record, await response.json().catch(() => ({})));
    }
  });
  return { tus, renewals };
}

/** Waits for the draft creation (POST /api/v1/transfers) and returns its body: the transfer id and each file's first upload token. */
export async function draftCreated(page: Page) {
  const response = await page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1/transfers' && r.request().method() === 'POST',
    { timeout: 30_000 },
  );
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; files: { id: string; uploadToken: string; uploadTokenExpiresAt: string }[] };
}

/** The transfer as GET /api/v1/transfers/{id} returns it, with a dashboard access token of the page's session. */
export async function fetchTransfer(page: Page, transferId: string) {
  const tokenResponse = await page.request.post('/api/dashboard/token');
  expect(tokenResponse.status()).toBe(200);
  const { accessToken } = (await tokenResponse.json()) as { accessToken: string };
  const response = await page.request.get(`/api/v1/transfers/${transferId}`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; status: string; files: { id: string; name: string; sizeBytes: number; crc32: string | null }[] };
}

/** Sends the (fully uploaded) transfer from /transfers/new and returns the shared link. */
export async function sendAndGetLink(page: Page) {
  await expectUploadsFinished(page, 120_000);
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await send.click();
  await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible({ timeout: 30_000 });
  const link = page.getByRole('textbox', { name: 'Transfer link' });
  await expect(link).toHaveValue(/^https?:\/\/.+/);
  return link.inputValue();
}

/** Adds files through the Uppy Dashboard's file input (not the folder one), as the file chooser would. */
export async function addFile(page: Page, filePath: string) {
  const input = page.locator('input.uppy-Dashboard-input[name="files[]"]:not([webkitdirectory])');
  await expect(input).toHaveCount(1);
  await input.setInputFiles(filePath);
}

/** Uppy's overall upload progress in percent, from the Dashboard's status bar. */
export async function uploadProgress(page: Page): Promise<number> {
  const bar = page.locator('.uppy-StatusBar-progress[role="progressbar"]');
  if ((await bar.count()) === 0) return 0;
  return Number((await bar.first().getAttribute('aria-valuenow')) ?? 0);
}

/**
 * A TCP proxy in front of the server whose "network" the test can drop: `down()` resets every open
 * connection (a request in flight fails half-way, as when Wi-Fi drops) and every new one until
 * `up()`. Chromium's own offline emulation does not tear down a request body already being sent,
 * so this is what interrupts an upload mid-file. The page must use the proxy's origin for everything.
 */
export async function startDroppableProxy(targetPort: number) {
  const open = new Set<net.Socket>();
  let isDown = false;
  const server = net.createServer((client) => {
    if (isDown) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const close = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    down() {
      isDown = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    up() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
