import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { PUBLIC_PAGE_DATA_ID, type PublicPageData } from '../../contract/public-page.js';
import { newId, randomBase62 } from '../core/secrets.js';
import { collections } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { seedTransfer } from '../test/transfers.js';
import { jsonForScriptElement } from './page-data.js';

/** A built app as the build leaves it: the index, the route list and the route scripts' list. */
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-page-data-'));
let server: TestServer;

beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>Parcel</title></head><body><div id="root"></div></body></html>');
  const routes = appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'));
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(routes));
  fs.writeFileSync(path.join(staticDir, 'route-chunks.json'), JSON.stringify({ 't/$slug.tsx': ['/assets/recipient-1234.js'] }));
  server = await startTestServer({}, { staticDir });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** The page's data block as the browser would read it (null when there is none), and the HTML around it. */
async function openPage(pathname: string): Promise<{ res: Response; html: string; data: PublicPageData | null }> {
  const res = await server.fetch(pathname);
  const html = await res.text();
  const block = new RegExp(`<script type="application/json" id="${PUBLIC_PAGE_DATA_ID}">([^<]*)</script>`).exec(html);
  return { res, html, data: block ? (JSON.parse(block[1]!) as PublicPageData) : null };
}

describe('a public page carries its first view in its HTML', () => {
  it("holds a recipient link's files before any script runs, as the public API answers them", async () => {
    const { transfer } = await seedTransfer(server, {
      title: 'Site visit',
      message: 'The photos from Tuesday.',
      files: [
        { name: 'report.pdf', data: Buffer.from('pdf bytes') },
        { name: 'notes.txt', data: Buffer.from('some notes') },
      ],
    });
    const { res, html, data } = await openPage(`/t/${transfer.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(data?.page).toBe('transfer');
    const api = await (await server.fetch(`/api/public/transfers/${transfer.slug}`)).json();
    expect(data).toEqual({ page: 'transfer', slug: transfer.slug, transfer: api });
    expect(data?.page === 'transfer' && data.transfer.files.map((f) => f.name)).toEqual(['report.pdf', 'notes.txt']);
    // The page's own scripts are asked for beside the entry.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/recipient-1234.js" />');
  });

  it('carries nothing of a password-protected transfer before its password is given', async () => {
    const { transfer } = await seedTransfer(server, { title: 'Secret plans', password: 'open sesame', files: [{ name: 'plans.pdf', data: Buffer.from('x') }] });
    const { res, html, data } = await openPage(`/t/${transfer.slug}`);
    expect(res.status).toBe(200);
    expect(data).toBeNull();
    expect(html).not.toContain('plans.pdf');
    expect(html).not.toContain('Secret plans');
    expect(html).not.toContain('modulepreload');
  });

  it('carries nothing for an expired link, which the page then asks the API about', async () => {
    const { transfer } = await seedTransfer(server, { files: [{ name: 'old.pdf', data: Buffer.from('x') }], expiresInMs: -1000 });
    const { res, data } = await openPage(`/t/${transfer.slug}`);
    expect(res.status).toBe(200);
    expect(data).toBeNull();
  });

  it('keeps a hostile file name text: no markup of it reaches the HTML, and the page reads it back unchanged', async () => {
    const hostile = "</script><script>alert(1)</script><!--\u2028&amp;$'$&.txt";
    const { transfer } = await seedTransfer(server, { title: '<img src=x onerror=alert(2)>', files: [{ name: hostile, data: Buffer.from('x') }] });
    const { html, data } = await openPage(`/t/${transfer.slug}`);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const files = data?.page === 'transfer' ? data.transfer.files : [];
    const api = (await (await server.fetch(`/api/public/transfers/${transfer.slug}`)).json()) as { files: { name: string }[] };
    expect(files.map((f) => f.name)).toEqual(api.files.map((f) => f.name));
    expect(data?.page === 'transfer' && data.transfer.title).toBe('<img src=x onerror=alert(2)>');
  });

  it("holds a public collection's first page of files, and nothing of a guests-only one", async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const now = server.clock.now();
    const row = (visibility: 'public' | 'private') => ({
      id: newId('col'),
      workspaceId: ws.id,
      title: `${visibility} shoot`,
      slug: randomBase62(22),
      visibility,
      createdAt: now,
      updatedAt: now,
    });
    const open = row('public');
    const guestsOnly = row('private');
    await server.services.db.insert(collections).values([open, guestsOnly]);

    const shown = await openPage(`/c/${open.slug}`);
    expect(shown.data?.page).toBe('collection');
    const api = await (await server.fetch(`/api/public/collections/${open.slug}`)).json();
    expect(shown.data?.page === 'collection' && shown.data.collection).toEqual(api);

    const refused = await openPage(`/c/${guestsOnly.slug}`);
    expect(refused.data).toBeNull();
    expect(refused.html).not.toContain('private shoot');
    // A mailed guest sign-in link is traded first, by the page: nothing is carried.
    expect((await openPage(`/c/${open.slug}?guest=abc`)).data).toBeNull();
  });

  it('carries nothing on pages that are not a public link', async () => {
    expect((await openPage('/signin')).data).toBeNull();
    expect((await openPage('/t/not-a-slug')).data).toBeNull();
  });
});

describe('jsonForScriptElement', () => {
  it('writes <, >, & and the line separators as escapes that JSON.parse reads back', () => {
    const value = { name: '</script><!-- & \u2028\u2029 -->' };
    const text = jsonForScriptElement(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
