import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { CollectionResponseSchema } from '../../contract/collections.js';
import { domainSet } from '../admin/commands.js';
import { collectionsApi } from '../test/collections.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';

/** A built app as the build leaves it (the index and the route list), so collection pages are served. */
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-readable-links-'));
let server: TestServer;

beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>Parcel</title></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'))));
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' }, { staticDir });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

async function owner() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const api = collectionsApi(server, await ws.createKey(['collections:read', 'collections:write'], 'collections'));
  const rename = (id: string, slug: unknown) => api.call('PATCH', `/collections/${id}`, { slug });
  return { ws, api, rename };
}

const manual = { redirect: 'manual' } as const;

describe('readable collection links', () => {
  it('renames the link; the old one redirects to it with its query, the public API answers both, and a rename back is allowed', async () => {
    const { api, rename } = await owner();
    const c = await api.create({ title: 'Spring lookbook', visibility: 'public' });
    const renamed = await rename(c.id, 'spring-lookbook');
    expect(renamed.status).toBe(200);
    const body = CollectionResponseSchema.parse(await renamed.json()).collection;
    expect([body.slug, body.url]).toEqual(['spring-lookbook', `${server.services.config.PUBLIC_URL}/c/spring-lookbook`]);

    expect((await server.fetch('/c/spring-lookbook', manual)).status).toBe(200);
    const old = await server.fetch(`/c/${c.slug}?folder=abc`, manual);
    expect([old.status, old.headers.get('location')]).toEqual([308, '/c/spring-lookbook?folder=abc']);
    for (const slug of [c.slug, 'spring-lookbook']) {
      const res = await server.fetch(`/api/public/collections/${slug}`);
      expect([slug, res.status, ((await res.json()) as { title: string }).title]).toEqual([slug, 200, 'Spring lookbook']);
    }

    // Renamed again: every name it had leads to the newest; and it may take a former name of its own back.
    expect((await rename(c.id, 'lookbook-2027')).status).toBe(200);
    for (const slug of [c.slug, 'spring-lookbook']) expect((await server.fetch(`/c/${slug}`, manual)).headers.get('location')).toBe('/c/lookbook-2027');
    expect((await rename(c.id, 'spring-lookbook')).status).toBe(200);
    expect((await server.fetch('/c/spring-lookbook', manual)).status).toBe(200);
    expect((await server.fetch('/c/lookbook-2027', manual)).headers.get('location')).toBe('/c/spring-lookbook');
    // An unknown name is the app's 404 page, not a redirect.
    expect((await server.fetch('/c/never-was-a-collection', manual)).status).toBe(200);
    expect((await server.fetch('/api/public/collections/never-was-a-collection')).status).toBe(404);
  });

  it('refuses malformed, reserved and phishing names naming slug, and names another collection has or had', async () => {
    const { api, rename } = await owner();
    const c = await api.create({ title: 'Mine' });
    for (const bad of ['Spring', 'ab', 'spring--lookbook', '-spring', 'spring_lookbook', 'api', 'assets', 'paypal-refund', 'verify-your-account', 'x'.repeat(65), 42]) {
      const error = await errorOf(await rename(c.id, bad), 400);
      expect([bad, error.code, (error.details.fields as { path: string }[])[0]?.path]).toEqual([bad, 'invalid_request', 'slug']);
    }

    const other = await owner();
    const theirs = await other.api.create({ title: 'Theirs' });
    expect((await other.rename(theirs.id, 'studio-reel')).status).toBe(200);
    expect((await other.rename(theirs.id, 'studio-reel-2027')).status).toBe(200);
    // Their current name, and the name they had before: both stay theirs.
    for (const taken of ['studio-reel-2027', 'studio-reel']) {
      const error = await errorOf(await rename(c.id, taken), 409);
      expect([error.code, error.details.reason]).toEqual(['conflict', 'slug_taken']);
    }
    expect(CollectionResponseSchema.parse(await (await api.call('GET', `/collections/${c.id}`)).json()).collection.slug).toBe(c.slug);
  });

  it("keeps every link of a deleted collection saying so, and lets only the same workspace take its name again", async () => {
    const { api, rename } = await owner();
    const c = await api.create({ title: 'Gone soon', visibility: 'public' });
    expect((await rename(c.id, 'gone-soon')).status).toBe(200);
    expect((await api.call('DELETE', `/collections/${c.id}`)).status).toBe(200);
    for (const slug of [c.slug, 'gone-soon']) {
      const error = await errorOf(await server.fetch(`/api/public/collections/${slug}`), 410);
      expect([slug, error.details.reason]).toEqual([slug, 'deleted']);
    }

    const stranger = await owner();
    const theirs = await stranger.api.create({ title: 'Squatter' });
    expect((await errorOf(await stranger.rename(theirs.id, 'gone-soon'), 409)).details.reason).toBe('slug_taken');
    const again = await api.create({ title: 'Back again', visibility: 'public' });
    expect((await rename(again.id, 'gone-soon')).status).toBe(200);
    expect((await server.fetch('/api/public/collections/gone-soon')).status).toBe(200);
  });

  it('gives one of two collections renamed to the same name at once the name, and the other a 409', async () => {
    const { api, rename } = await owner();
    const [a, b] = [await api.create({ title: 'A' }), await api.create({ title: 'B' })];
    const answers = await Promise.all([rename(a.id, 'same-name'), rename(b.id, 'same-name')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("redirects a former name on the workspace's own domain to the current one there", async () => {
    const { ws, api, rename } = await owner();
    await domainSet(server.services.db, { workspaceId: ws.id, domain: 'files.readable.example' });
    const c = await api.create({ title: 'On our domain', visibility: 'public' });
    expect((await api.call('PATCH', `/collections/${c.id}`, { customLink: true })).status).toBe(200);
    expect((await rename(c.id, 'our-portfolio')).status).toBe(200);
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${server.url}/${c.slug}?guest=t`, { headers: { host: 'files.readable.example' } }, resolve);
      req.on('error', reject);
      req.end();
    });
    answer.resume();
    expect([answer.statusCode, answer.headers.location]).toEqual([308, '/our-portfolio?guest=t']);
  });
});
