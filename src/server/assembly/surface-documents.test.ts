import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../dashboard/routes.js';
import { publicRoutes } from '../public/transfers.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { lintOpenApi } from '../test/redocly.js';

/**
 * The dashboard's and the public pages' APIs are built with the surface route builder
 * (http/surface.ts), so each has an OpenAPI document: every route mounted is in it (no handler is
 * written beside the builder), and it is a valid document.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const surfaces = [
  { mount: '/api/dashboard', app: () => dashboardRoutes() },
  { mount: '/api/public', app: () => publicRoutes(server.services) },
];

describe.each(surfaces)('the $mount document', ({ mount, app }) => {
  it('lists every route the surface mounts, each with its auth kind', async () => {
    const res = await server.fetch(`${mount}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { servers: { url: string }[]; paths: Record<string, Record<string, { description: string; security: unknown[] }>> };
    expect(doc.servers).toEqual([{ url: `${server.services.config.PUBLIC_URL}${mount}` }]);
    const documented = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const mounted = app()
      .routes.filter((r) => r.method !== 'ALL' && r.path !== '/openapi.json')
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect([...new Set(mounted)].sort()).toEqual(documented.sort());
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) expect(op.security).toBeDefined();
  });

  it('passes Redocly lint with the recommended rules, without errors', async () => {
    const run = await lintOpenApi(await (await server.fetch(`${mount}/openapi.json`)).text());
    expect(run.code, run.output).toBe(0);
  }, 60_000);
});
