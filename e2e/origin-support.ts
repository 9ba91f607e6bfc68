import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page } from '@playwright/test';

/**
 * A real origin on 127.0.0.1 (the e2e server allows http loopback origins): it serves `bytes` at
 * /<fileName> (footage.bin unless named) and answers 404 to anything else. The body is held back
 * until `release()` (the headers, with the length, go at once), so the test can watch the import
 * run and send meanwhile.
 */
export async function startOrigin(bytes: Buffer, fileName = 'footage.bin') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((req, res) => {
    if (req.url !== `/${fileName}`) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not here');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) });
    res.flushHeaders();
    void released.then(() => res.end(bytes));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Adds a file from a URL on New transfer, through its dialog. */
export async function addFromUrl(page: Page, url: string) {
  await page.getByRole('button', { name: 'Add from URL' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add from URL' });
  await dialog.getByLabel('File URL').fill(url);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
}
