import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { domainSet } from '../admin/commands.js';
import { newId, randomBase62 } from '../core/secrets.js';
import { collections } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/** A built app as the build leaves it, so that page statuses are the real ones. */
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-spa-'));
let server: TestServer;
let shown: { slug: string };
let unlinked: { slug: string };
let foreign: { slug: string };

beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Parcel</title><div id="root"></div>');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), 'export {};\n');
  const routes = appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'));
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(routes));
  server = await startTestServer({}, { staticDir });

  const ws = await server.createWorkspace({ plan: 'paid' });
  await domainSet(server.services.db, { workspaceId: ws.id, domain: 'files.example.com' });
  const other = await server.createWorkspace({ plan: 'paid' });
  await domainSet(server.services.db, { workspaceId: other.id, domain: 'share.other.example' });
  shown = await addCollection(server, ws.id, true);
  unlinked = await addCollection(server, ws.id, false);
  foreign = await addCollection(server, other.id, true);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

// Straight into the table: the collections API is not what is under test here.
async function addCollection(on: TestServer, workspaceId: string, customLink: boolean) {
  const now = on.clock.now();
  const row = {
    id: newId('col'),
    workspaceId,
    title: 'Shoot',
    slug: randomBase62(22),
    visibility: 'public' as const,
    customLink,
    createdAt: now,
    updatedAt: now,
  };
  await on.services.db.insert(collections).values(row);
  return row;
}

/** A GET with this Host header (fetch would replace it with the address it connects to). */
function get(
  pathname: string,
  host: string,
  headers: Record<string, string> = {},
  on = server,
): Promise<{ status: number; contentType: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${on.url}${pathname}`, { headers: { ...headers, host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString() }));
      })
      .on('error', reject);
  });
}

describe("a workspace's own domain", () => {
  it('serves the app at /<slug> of its collection with a custom link', async () => {
    for (const pathname of [`/${shown.slug}`, `/${shown.slug}/`]) {
      const res = await get(pathname, 'files.example.com');
      expect([pathname, res.status]).toEqual([pathname, 200]);
      expect(res.contentType).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('matches the Host whatever its case and port', async () => {
    expect((await get(`/${shown.slug}`, 'files.example.com:8080')).status).toBe(200);
    expect((await get(`/${shown.slug}`, 'FILES.Example.COM')).status).toBe(200);
    expect((await get(`/${shown.slug}`, 'Files.Example.Com.:443')).status).toBe(200);
  });

  it('answers 404 for a collection without a custom link, and for the collection of another workspace', async () => {
    expect((await get(`/${unlinked.slug}`, 'files.example.com')).status).toBe(404);
    expect((await get(`/${foreign.slug}`, 'files.example.com')).status).toBe(404);
    // The other workspace's own domain does serve it.
    expect((await get(`/${foreign.slug}`, 'share.other.example')).status).toBe(200);
  });

  it('shows none of the rest of the app: every other page is a 404 with the app to render it', async () => {
    for (const pathname of ['/', '/index.html', '/transfers', '/signin', `/t/${shown.slug}`, `/c/${shown.slug}`, `/${shown.slug}/more`, '/nothing-here']) {
      const res = await get(pathname, 'files.example.com');
      expect([pathname, res.status]).toEqual([pathname, 404]);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('tells the app it is on a workspace’s domain, on its pages and its 404s alike', async () => {
    for (const pathname of [`/${shown.slug}`, '/signin', '/']) {
      expect([pathname, (await get(pathname, 'files.example.com')).body]).toEqual([pathname, expect.stringContaining('<meta name="parcel-custom-domain"')]);
    }
    for (const host of ['127.0.0.1', 'unknown.example.net']) {
      expect((await get('/signin', host)).body).not.toContain('parcel-custom-domain');
    }
  });

  it('keeps the server routes working on it: the API, assets and health', async () => {
    const api = await get('/api/v1/openapi.json', 'files.example.com');
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)).toMatchObject({ openapi: '3.1.0' });
    expect((await get('/assets/app-1234.js', 'files.example.com')).status).toBe(200);
    expect((await get('/healthz', 'files.example.com')).status).toBe(200);
    expect((await get('/api/v1/me', 'files.example.com')).status).toBe(401);
  });
});

describe('hosts that are no workspace’s domain', () => {
  it('answer /<slug> with 404, as the app has no such page', async () => {
    expect((await get(`/${shown.slug}`, 'unknown.example.net')).status).toBe(404);
    expect((await get(`/${shown.slug}`, '127.0.0.1')).status).toBe(404);
  });

  it('keep serving the app at its own pages, / and /index.html included', async () => {
    for (const host of ['127.0.0.1', 'unknown.example.net']) {
      for (const pathname of ['/', '/index.html', '/transfers', `/t/${shown.slug}`]) {
        expect([host, pathname, (await get(pathname, host)).status]).toEqual([host, pathname, 200]);
      }
    }
  });
});

describe('behind a proxy', () => {
  it('takes the host from X-Forwarded-Host only with TRUST_PROXY on', async () => {
    expect((await get(`/${shown.slug}`, '127.0.0.1', { 'x-forwarded-host': 'files.example.com' })).status).toBe(404);

    const proxied = await startTestServer({ TRUST_PROXY: '1' }, { staticDir });
    try {
      const ws = await proxied.createWorkspace({ plan: 'paid' });
      await domainSet(proxied.services.db, { workspaceId: ws.id, domain: 'files.example.com' });
      const { slug } = await addCollection(proxied, ws.id, true);
      expect((await get(`/${slug}`, '127.0.0.1', { 'x-forwarded-host': 'Files.Example.com, 10.0.0.1' }, proxied)).status).toBe(200);
      expect((await get(`/${slug}`, 'files.example.com', {}, proxied)).status).toBe(200);
      expect((await get(`/${slug}`, '127.0.0.1', {}, proxied)).status).toBe(404);
    } finally {
      await proxied.stop();
    }
  });
});
