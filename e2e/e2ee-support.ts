import fs from 'node:fs';
import path from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { createDecryptStream, parseHeader, type LinkKeys } from '../src/crypto';
import { e2eDataDir } from './data-dir';

/** What the e2ee specs (transfers and the vault) share: every request seen, and saving through a stubbed file picker. */

/** Every request the context makes (pages and workers), as text to search for the key. */
export function recordRequests(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on('request', (r) => {
    seen.push(`${r.method()} ${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData() ?? ''}`);
  });
  return seen;
}

/** Replaces showSaveFilePicker with one whose file keeps what is written (in window.__saved), as Chromium's would write it to disk. */
export async function stubFilePicker(page: Page) {
  await page.addInitScript(() => {
    const saved: Record<string, { chunks: Uint8Array[]; state: string }> = {};
    (window as unknown as { __saved: typeof saved }).__saved = saved;
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => ({
      async createWritable() {
        const file: { chunks: Uint8Array[]; state: string } = { chunks: [], state: 'writing' };
        saved[suggestedName] = file;
        return new WritableStream<Uint8Array>({
          write(chunk) {
            file.chunks.push(new Uint8Array(chunk));
          },
          close() {
            file.state = 'closed';
          },
          abort() {
            file.state = 'aborted';
          },
        });
      },
    });
  });
}

export async function savedFile(page: Page, name: string): Promise<Buffer> {
  await expect.poll(() => page.evaluate((n) => (window as unknown as { __saved: Record<string, { state: string }> }).__saved[n]?.state, name), { timeout: 30_000 }).toBe('closed');
  const base64 = await page.evaluate(async (n) => {
    const file = (window as unknown as { __saved: Record<string, { chunks: Uint8Array[] }> }).__saved[n]!;
    const blob = new Blob(file.chunks as BlobPart[]);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, name);
  return Buffer.from(base64, 'base64');
}

/** A request as sent: its URL, headers and body bytes (for searching a binary body). */
export interface Recorded {
  url: string;
  headers: string;
  body: Buffer;
}

/** Every request the page makes, with its headers and body, for searching afterwards. */
export function recordRequestBodies(page: Page): Recorded[] {
  const seen: Recorded[] = [];
  page.on('request', (request) => {
    const entry: Recorded = { url: request.url(), headers: '', body: request.postDataBuffer() ?? Buffer.alloc(0) };
    seen.push(entry);
    void request.allHeaders().then((headers) => (entry.headers = JSON.stringify(headers)), () => undefined);
  });
  return seen;
}

/** The secret as it could leak: as is, and base64-encoded (as tus's Upload-Metadata would carry a name). */
/** The secret appears in no URL, header or body, as text, base64 or percent-encoded. */
export function expectNowhere(requests: Recorded[], secret: string) {
  const forms = [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)];
  // Searched in plain code and asserted once: an assertion per request and form (a page makes hundreds of requests)
  // is a traced step each, and took minutes.
  const leaks: string[] = [];
  for (const request of requests) {
    for (const form of forms) {
      if (request.url.includes(form)) leaks.push(`${request.url} carries ${secret}`);
      if (request.headers.includes(form)) leaks.push(`headers of ${request.url} carry ${secret}`);
      if (request.body.includes(Buffer.from(form))) leaks.push(`body of ${request.url} carries ${secret}`);
    }
  }
  expect(leaks).toEqual([]);
}

/** Where the e2e server stored a file's bytes. */
export const storedPath = (port: number, fileId: string): string => {
  const root = path.join(e2eDataDir(port), 'files');
  const found = (fs.readdirSync(root, { recursive: true }) as string[]).find((name) => path.basename(name) === fileId);
  if (!found) throw new Error(`No stored file for ${fileId} under ${root}`);
  return path.join(root, found);
};

/** A stored container decrypted with the link's keys, as a recipient's browser would. */
export async function decrypt(keys: LinkKeys, container: Buffer, size: number): Promise<Buffer> {
  const { salt } = parseHeader(new Uint8Array(container.subarray(0, 24)));
  const out = new Blob([new Uint8Array(container)]).stream().pipeThrough(createDecryptStream(keys.content, { salt, size }));
  return Buffer.from(await new Response(out).arrayBuffer());
}

/** A new transfer with end-to-end encryption switched on. */
export async function encryptionOn(page: Page) {
  await page.goto('/transfers/new');
  const toggle = page.getByRole('switch', { name: 'End-to-end encrypt' });
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect(page.getByRole('button', { name: 'Add from URL' })).toHaveCount(0);
}
