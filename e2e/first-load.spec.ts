import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * What a browser really downloads on a first visit: the JavaScript bytes on the wire (compressed,
 * with their response headers), read from Chromium's own network events with the cache off. The budget is
 * 150 KB of compressed JavaScript (issue 33); scripts/check-bundle-budget.mjs checks the same from the build.
 */
const budgetBytes = 150 * 1000;

interface Fetched {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
}

async function firstLoad(page: Page, path: string): Promise<Fetched[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses = new Map<string, Omit<Fetched, 'bytes'>>();
  const fetched: Fetched[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    responses.set(event.requestId, { url: event.response.url, type: event.type, encoding: headers['content-encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = responses.get(event.requestId);
    if (response) fetched.push({ ...response, bytes: event.encodedDataLength });
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await cdp.detach();
  return fetched;
}

function report(where: string, fetched: Fetched[]) {
  const scripts = fetched.filter((f) => f.type === 'Script');
  const total = scripts.reduce((sum, f) => sum + f.bytes, 0);
  test.info().annotations.push({
    type: 'first load',
    description: `${where}: ${scripts.length} scripts, ${(total / 1000).toFixed(1)} KB of JavaScript over the wire (${scripts.map((s) => `${new URL(s.url).pathname} ${s.encoding} ${(s.bytes / 1000).toFixed(1)} KB`).join(', ')})`,
  });
  return { scripts, total };
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

    await signUp(page);
    const dashboard = report('transfers list, signed in', await firstLoad(page, '/transfers'));
    expect(dashboard.total).toBeLessThan(budgetBytes);
    // The uploader is the New transfer page's own chunk, fetched only there.
    for (const script of dashboard.scripts) {
      const body = await (await page.request.get(script.url)).text();
      expect(body.includes('uppy-Dashboard') || body.includes('tus-js-client'), `${script.url} holds upload code`).toBe(false);
    }
  } finally {
    await context.close();
  }
});
