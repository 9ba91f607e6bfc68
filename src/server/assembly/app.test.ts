import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('unknown paths under /api', () => {
  it.each([
    ['GET', '/api/v1/nothing-here'],
    ['POST', '/api/v1/nothing-here'],
    ['GET', '/api/v1/me/nothing-here'],
    ['DELETE', '/api/v1/me'],
    ['GET', '/api/nothing-here'],
    ['POST', '/api/nothing-here'],
    ['GET', '/api/dashboard/nothing-here'],
    ['POST', '/api/dashboard/nothing-here'],
    ['GET', '/api'],
  ])('%s %s answers 404 not_found in the Error shape, as JSON', async (method, path) => {
    const res = await server.fetch(path, { method, ...(method === 'POST' ? { json: {} } : {}) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('not_found');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.details).toEqual({});
    const docs = new URL(error.docs);
    expect(docs.origin).toBe(new URL(server.services.config.PUBLIC_URL).origin);
    expect(error.docs.endsWith('/docs/errors#not_found')).toBe(true);
  });
});

describe('request validation on the dashboard', () => {
  it('answers 400 invalid_request to a body that is not JSON', async () => {
    const res = await server.fetch('/api/dashboard/signup', {
      method: 'POST',
      body: '{"email": "broken@example.test", ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('invalid_request');
    expect(error.docs.endsWith('/docs/errors#invalid_request')).toBe(true);
  });

  it('names every offending field in details.fields', async () => {
    const res = await server.fetch('/api/dashboard/signup', {
      method: 'POST',
      json: { email: 'not-an-email', password: 'short', workspaceName: 'Acme' },
    });
    expect(res.status).toBe(400);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('invalid_request');
    const fields = error.details.fields as { path: string; message: string }[];
    expect(fields.map((f) => f.path).sort()).toEqual(['email', 'password']);
    for (const f of fields) expect(f.message.length).toBeGreaterThan(0);
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413 payload_too_large before reading it, and accepts a normal one', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:write']);
    const huge = JSON.stringify({ email: 'big@example.test', company: 'x'.repeat(2 * 1024 * 1024) });
    // Its own connection: the server answers early and closes it, which a pooled client would then reuse.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v1/contacts`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(huge) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(huge);
    });
    expect(status).toBe(413);
    expect(ErrorSchema.parse(JSON.parse(body)).error.code).toBe('payload_too_large');
    const ok = await server.fetch('/api/v1/contacts', { method: 'POST', token: key, json: { email: 'small@example.test' } });
    expect(ok.status).toBe(201);
  });
});

describe('headers on every response', () => {
  it.each([
    ['an API success', '/api/v1/openapi.json', 200],
    ['an API error', '/api/v1/me', 401],
    ['an unknown API path', '/api/nothing-here', 404],
    ['the health check', '/healthz', 200],
    ['a page of the web app', '/transfers/some-page', null],
  ])('%s carries a strict Content-Security-Policy, nosniff, a Referrer-Policy and a request id', async (_, path, status) => {
    const res = await server.fetch(path);
    if (status !== null) expect(res.status).toBe(status);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBeTruthy();
    expect(csp).not.toContain('unsafe-inline');
    // Script only from this origin; WebAssembly may compile (the vault's Argon2id), but never eval.
    expect(csp!.split(/;\s*/)).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp!.split(/[;\s]+/)).not.toContain("'unsafe-eval'");
    expect(csp!.split(/;\s*/)).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(res.headers.get('referrer-policy'));
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });

  it('gives each request its own id', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await server.fetch('/healthz')).headers.get('x-request-id')));
    expect(new Set(ids).size).toBe(3);
  });

  it('echoes a sane X-Request-Id from the caller, on success and on error', async () => {
    for (const path of ['/healthz', '/api/v1/me']) {
      const res = await server.fetch(path, { headers: { 'x-request-id': 'proxy-7f3a9c2e.1' } });
      expect(res.headers.get('x-request-id')).toBe('proxy-7f3a9c2e.1');
    }
  });

  it.each([
    ['too short', 'abc'],
    ['with spaces', 'one two three four'],
    ['too long', 'x'.repeat(129)],
    ['with markup', '<script>alert(1)</script>'],
  ])('replaces an X-Request-Id that is %s', async (_, incoming) => {
    const res = await server.fetch('/healthz', { headers: { 'x-request-id': incoming } });
    const id = res.headers.get('x-request-id');
    expect(id).not.toBe(incoming);
    expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });
});

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} when the database is reachable', async () => {
    const res = await server.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
