import { expect, type BrowserContext, type Page } from '@playwright/test';

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
