import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { randomBase62, newId } from '../core/secrets.js';
import { collections } from '../db/schema/index.js';
import { collectionsApi } from '../test/collections.js';
import { requestsApi, slugOf } from '../test/requests.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { seedTransfer } from '../test/transfers.js';

/**
 * The public pages' server render (src/app/entry-server.tsx, loaded here from its source as the
 * server loads the built bundle): a link's first view is in the HTML's `#root`, as React escapes
 * it, and nothing is rendered of a page the public API would not show this visitor.
 */

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-server-render-'));
const entry = fileURLToPath(new URL('../../app/entry-server.tsx', import.meta.url));
let server: TestServer;

beforeAll(async () => {
  fs.writeFileSync(
    path.join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>Parcel</title><script type="module" crossorigin src="/assets/index-abc.js"></script><link rel="modulepreload" crossorigin href="/assets/dep-1.js"></head><body><div id="root"></div></body></html>',
  );
  const routes = appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'));
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(routes));
  // Compiled from source here (the server loads a built bundle): seconds on a busy machine, past
  // the renderer's load timeout. Imported once first, the server's import finds it compiled.
  await import(entry);
  server = await startTestServer({}, { staticDir, serverRenderEntry: entry });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** The page's `#root` as served (everything between its tags; empty when not rendered). */
async function rootOf(pathname: string): Promise<{ html: string; root: string }> {
  const res = await server.fetch(pathname);
  expect(res.status).toBe(200);
  const html = await res.text();
  const match = /<div id="root"[^>]*>([\s\S]*)<\/div><\/body>/.exec(html);
  return { html, root: match?.[1] ?? '' };
}

describe('a public page’s language', () => {
  it('follows the browser’s Accept-Language, then the reader’s choice from the menu, rendered in it on the server', async () => {
    const { transfer } = await seedTransfer(server, { title: 'Site visit', files: [{ name: 'report.pdf', data: Buffer.alloc(2_500_000) }] });
    const de = JSON.parse(fs.readFileSync(new URL('../../locales/app/de.json', import.meta.url), 'utf8')) as Record<string, string>;
    const german = await server.fetch(`/t/${transfer.slug}`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } });
    expect(german.headers.get('vary')).toMatch(/Accept-Language/);
    const html = await german.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain(de['transfer.totalSize']);
    expect(html).toContain('2,5 MB');
    expect(html).toMatch(/data-ssr-locale="de-DE"/);

    const chosen = await (await server.fetch(`/t/${transfer.slug}`, { headers: { 'accept-language': 'de-DE', cookie: 'parcel_lang=ar' } })).text();
    expect(chosen).toContain('<html lang="ar" dir="rtl">');
    const nobody = await (await server.fetch(`/t/${transfer.slug}`, { headers: { 'accept-language': 'sv-SE' } })).text();
    expect(nobody).toContain('<html lang="en" dir="ltr">');
    // The dashboard's pages are in their reader's language too (a signed-in person's own when they chose one).
    const dashboard = await (await server.fetch('/signin', { headers: { 'accept-language': 'de-DE', cookie: 'parcel_lang=ja' } })).text();
    expect(dashboard).toContain('<html lang="ja" dir="ltr">');
  });
});

describe("a public link's first view is rendered on the server", () => {
  it("renders a transfer's title and files as text, a hostile name escaped", async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const { transfer } = await seedTransfer(server, {
      title: 'Site visit',
      message: 'The photos from Tuesday.',
      files: [
        { name: 'report.pdf', data: Buffer.from('pdf bytes') },
        { name: `${hostile}.txt`, data: Buffer.from('x') },
      ],
    });
    const { html, root } = await rootOf(`/t/${transfer.slug}`);
    expect(html).toMatch(/<div id="root" data-ssr-at="\d+" data-ssr-locale="[^"]+">/);
    expect(root).toContain('Site visit');
    expect(root).toContain('The photos from Tuesday.');
    expect(root).toContain('report.pdf');
    expect(root).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
    // Never an element, anywhere in the page (the data block escapes it too).
    expect(html).not.toContain('<img src=x');
    // No script of its own: the CSP allows none inline, and the data block is the only script element besides the page's.
    expect(root).not.toContain('<script');
    // The page's scripts start once it has painted (public/load-after-paint.js), not from the head.
    expect(html).toContain('<script src="/load-after-paint.js" defer data-entry="/assets/index-abc.js" data-modules="/assets/dep-1.js"></script>');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
  });

  it('renders nothing of a password-protected transfer', async () => {
    const { transfer } = await seedTransfer(server, { title: 'Secret plans', password: 'open sesame', files: [{ name: 'plans.pdf', data: Buffer.from('x') }] });
    const { html, root } = await rootOf(`/t/${transfer.slug}`);
    expect(root).toBe('');
    expect(html).not.toContain('plans.pdf');
    expect(html).not.toContain('Secret plans');
    expect(html).not.toContain('data-ssr-at');
  });

  it("renders a public collection's files, and nothing of a guests-only one", async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['collections:read', 'collections:write'], 'ssr');
    const api = collectionsApi(server, token);
    const shoot = await api.create({ title: 'Summer <b>shoot</b>', visibility: 'public' });
    await api.upload(shoot.id, [{ name: '<img src=x onerror=alert(3)>.jpg', bytes: Buffer.from('jpeg-ish') }]);
    const now = server.clock.now();
    const guestsOnly = { id: newId('col'), workspaceId: ws.id, title: 'Private shoot', slug: randomBase62(22), visibility: 'private' as const, createdAt: now, updatedAt: now };
    await server.services.db.insert(collections).values(guestsOnly);

    const shown = await rootOf(`/c/${shoot.slug}`);
    expect(shown.root).toContain('Summer &lt;b&gt;shoot&lt;/b&gt;');
    expect(shown.root).toContain('&lt;img src=x onerror=alert(3)&gt;.jpg');
    expect(shown.html).not.toContain('<img src=x');
    expect(shown.html).not.toContain('<b>shoot');

    const refused = await rootOf(`/c/${guestsOnly.slug}`);
    expect(refused.root).toBe('');
    expect(refused.html).not.toContain('Private shoot');
  });

  it("renders an upload request's title and message, escaped", async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['collections:read', 'collections:write'], 'ssr');
    const collection = await collectionsApi(server, token).create({ title: 'Client documents' });
    const r = await requestsApi(server, token).create({ title: 'Your <i>documents</i>', message: '<script>alert(4)</script>', collectionId: collection.id });
    const { html, root } = await rootOf(`/r/${slugOf(r)}`);
    expect(root).toContain('Your &lt;i&gt;documents&lt;/i&gt;');
    expect(root).toContain('&lt;script&gt;alert(4)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(4)');
    // The details form is in the first view, ready for the uploader's name.
    expect(root).toContain("Your details");
    expect(root).toMatch(/<input[^>]*name="name"/);
  });

  it('serves the page unrendered when the render fails, and warns', async () => {
    const lines: string[] = [];
    const broken = path.join(staticDir, 'broken-entry.mjs');
    fs.writeFileSync(broken, 'export async function renderPublicPage() { throw new Error("render broke"); }\n');
    const other = await startTestServer({}, { staticDir, serverRenderEntry: broken, logLines: lines });
    try {
      const { transfer } = await seedTransfer(other, { title: 'Still served', files: [{ name: 'a.txt', data: Buffer.from('a') }] });
      const res = await other.fetch(`/t/${transfer.slug}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      // Its scripts as the index has them.
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
      // The page's data is still there for the browser's render.
      expect(html).toContain('Still served');
      expect(lines.some((l) => l.includes('not rendered on the server'))).toBe(true);
    } finally {
      await other.stop();
    }
  });
});
