import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { brotliDecompressSync, brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/** A built app as the build leaves it: index.html and the routes manifest of the real route tree. */
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-spa-'));
let server: TestServer;
const script = `export const app = ${JSON.stringify('x'.repeat(5000))};\n`;
beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Parcel</title><div id="root"></div>');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), script);
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js.br'), brotliCompressSync(script));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js.gz'), gzipSync(script));
  const routes = appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'));
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(routes));
  server = await startTestServer({}, { staticDir });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('the web app at paths outside /api', () => {
  it.each([
    '/',
    '/transfers',
    '/transfers/',
    '/transfers/tr_doesnotexist',
    '/transfers/new',
    '/webhooks/wh_1',
    '/t/someslug',
    '/c/someslug',
    '/r/someslug',
    '/docs/api',
    '/signin',
    '/settings',
  ])('%s is a page: 200 with the app', async (pathname) => {
    const res = await server.fetch(pathname);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
  });

  it.each([
    '/nothing-here',
    '/someslug',
    '/transfers/tr_1/extra',
    '/t',
    '/c',
    '/r',
    '/c/someslug/extra',
    '/r/someslug/extra',
    '/docs/nothing',
    '/assets/missing.js',
  ])('%s is not: 404, still with the app to render its not-found page', async (pathname) => {
    const res = await server.fetch(pathname);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<div id="root">');
  });
});

describe('security headers', () => {
  it('keep the policy, nosniff and the origin rules on a built file, and the document-only ones on pages', async () => {
    const asset = await server.fetch('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    // A worker's script is governed by its own response's policy, so every script keeps it.
    expect(asset.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(asset.headers.get('referrer-policy')).toBe('no-referrer');
    for (const documentOnly of ['x-frame-options', 'cross-origin-opener-policy', 'permissions-policy']) expect(asset.headers.get(documentOnly)).toBeNull();

    for (const pathname of ['/', '/t/someslug', '/assets/missing.js']) {
      const page = await server.fetch(pathname);
      expect(page.headers.get('x-frame-options'), pathname).toBe('DENY');
      expect(page.headers.get('cross-origin-opener-policy'), pathname).toBe('same-origin');
      expect(page.headers.get('permissions-policy'), pathname).toContain('camera=()');
      expect(page.headers.get('content-security-policy'), pathname).toContain("frame-ancestors 'none'");
    }
  });
});

/** A GET with exactly these request headers (fetch would add its own Accept-Encoding), body as bytes. */
function rawGet(pathname: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('compression', () => {
  it('serves the precompressed brotli or gzip copy of an asset to a browser that accepts it', async () => {
    const br = await rawGet('/assets/app-1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await rawGet('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await rawGet('/assets/app-1234.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('compresses JSON answers for clients that accept it, and not for others', async () => {
    const gz = await rawGet('/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).openapi).toBe('3.1.0');
    expect(gz.body.length).toBeLessThan(gunzipSync(gz.body).length / 3);

    const plain = await rawGet('/api/v1/openapi.json', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).openapi).toBe('3.1.0');
  });
});
