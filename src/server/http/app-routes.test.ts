import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/** A built app as the build leaves it: index.html and the routes manifest of the real route tree. */
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-spa-'));
let server: TestServer;
beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Parcel</title><div id="root"></div>');
  const routes = appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'));
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(routes));
  server = await startTestServer({}, { staticDir });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('the web app at paths outside /api', () => {
  it.each(['/', '/transfers', '/transfers/', '/transfers/tr_doesnotexist', '/transfers/new', '/webhooks/wh_1', '/t/someslug', '/docs/api', '/signin', '/settings'])(
    '%s is a page: 200 with the app',
    async (pathname) => {
      const res = await server.fetch(pathname);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it.each(['/nothing-here', '/transfers/tr_1/extra', '/t', '/docs/nothing', '/assets/missing.js'])('%s is not: 404, still with the app to render its not-found page', async (pathname) => {
    const res = await server.fetch(pathname);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<div id="root">');
  });
});
