import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * What a browser really downloads on a first visit, read from Chromium's own network events with the
 * cache off: the JavaScript as sent (compressed bodies), held to issue 33's 150 KB, which
 * scripts/check-bundle-budget.mjs and bench:frontend also count; and everything on the wire with
 * the response headers of every script, held to the 200 KB this test allowed before. Over HTTP/1.1
 * each of the few dozen small chunks carries about 0.8 KB of headers (an HTTP/2 proxy compresses
 * the repeats away), so the two differ by some 30 KB.
 */
const budgetBytes = 150 * 1000;
const wireBudgetBytes = 200 * 1000;

interface Fetched {
  url: string;
  type: string;
  encoding: string;
  /** The compressed body (its Content-Length). */
  bytes: number;
  /** Everything received for it, headers included. */
  wireBytes: number;
}

async function firstLoad(page: Page, path: string): Promise<Fetched[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses = new Map<string, Omit<Fetched, 'bytes' | 'wireBytes'> & { length: number | null }>();
  const fetched: Fetched[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
    responses.set(event.requestId, { url: event.response.url, type: event.type, encoding: headers['content-encoding'] ?? 'identity', length });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = responses.get(event.requestId);
    if (!response) return;
    const { length, ...rest } = response;
    fetched.push({ ...rest, bytes: length ?? event.encodedDataLength, wireBytes: event.encodedDataLength });
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await cdp.detach();
  return fetched;
}

function report(where: string, fetched: Fetched[]) {
  const scripts = fetched.filter((f) => f.type === 'Script');
  const total = scripts.reduce((sum, f) => sum + f.bytes, 0);
  const wire = scripts.reduce((sum, f) => sum + f.wireBytes, 0);
  test.info().annotations.push({
    type: 'first load',
    description: `${where}: ${scripts.length} scripts, ${(total / 1000).toFixed(1)} KB of JavaScript as sent, ${(wire / 1000).toFixed(1)} KB on the wire with headers (${scripts.map((s) => `${new URL(s.url).pathname} ${s.encoding} ${(s.bytes / 1000).toFixed(1)} KB`).join(', ')})`,
  });
  return { scripts, total, wire };
}

test('a first visit downloads less than 150 KB of compressed JavaScript, brotli-encoded, with no upload code', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const signIn = report('sign-in page', await firstLoad(page, '/signin'));
    expect(signIn.scripts.length).toBeGreaterThan(0);
    // Files under 1 KB are sent as they are (compressing them saves nothing); the rest as brotli.
    for (const script of signIn.scripts.filter((s) => s.bytes > 2000)) expect(script.encoding, script.url).toBe('br');
    expect(signIn.total).toBeLessThan(budgetBytes);
    expect(signIn.wire).toBeLessThan(wireBudgetBytes);

    await signUp(page);
    const dashboard = report('transfers list, signed in', await firstLoad(page, '/transfers'));
    expect(dashboard.total).toBeLessThan(budgetBytes);
    expect(dashboard.wire).toBeLessThan(wireBudgetBytes);
    // The uploader is the New transfer page's own chunk, fetched only there.
    for (const script of dashboard.scripts) {
      const body = await (await page.request.get(script.url)).text();
      expect(body.includes('uppy-Dashboard') || body.includes('tus-js-client'), `${script.url} holds upload code`).toBe(false);
    }
  } finally {
    await context.close();
  }
});
