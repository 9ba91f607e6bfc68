// @module-tag scale-out — upload bytes land in the configured storage
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestServer, type TestServer } from '../test/harness.js';
import { setWorkspaceDisabled } from '../workspaces/operator.js';
import { crcOf, fileRow, randomFile, registerFile, tusUpload } from '../test/uploads.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const renew = (token?: string, headers: Record<string, string> = {}) =>
  server.fetch('/api/uploads/token', { method: 'POST', headers: { ...(token ? { 'x-service-upload-token': token } : {}), ...headers } });

describe('POST /api/uploads/token', () => {
  it('issues a new token for the same file that works for HEAD and PATCH; the old one works until its own expiry', async () => {
    const bytes = randomFile(3000);
    const file = await registerFile(server, bytes.length);
    const ttl = server.services.config.UPLOAD_TOKEN_TTL_SECONDS * 1000;
    const first = await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: file.token, chunkSize: 1000, stopAfterChunk: () => true });
    const head = (token: string) => fetch(first.url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': token } });

    server.clock.advance(ttl / 2);
    const res = await renew(file.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { uploadToken: string; expiresAt: string };
    expect(body.uploadToken).toMatch(/^ut_[0-9A-Za-z]{43}$/);
    expect(body.uploadToken).not.toBe(file.token);
    expect(body.expiresAt).toBe(new Date(server.clock.now().getTime() + ttl).toISOString());
    expect((await head(file.token)).status).toBe(200);
    expect((await head(body.uploadToken)).headers.get('upload-offset')).toBe('1000');

    // Past the first token's expiry: it is refused (and cannot be renewed); the new one finishes the upload.
    server.clock.advance(ttl / 2 + 1000);
    expect((await head(file.token)).status).toBe(401);
    await expectError(await renew(file.token), 401, 'unauthorized');
    await tusUpload(bytes, { uploadUrl: first.url, token: body.uploadToken, chunkSize: 1000 });
    const row = await fileRow(server.services, file.fileId);
    expect(row.state).toBe('complete');
    expect(row.crc32).toBe(crcOf(bytes));
  });

  it('refuses an expired, unknown, malformed or missing token with 401', async () => {
    const file = await registerFile(server, 10);
    await expectError(await renew(), 401, 'unauthorized');
    await expectError(await renew('nope'), 401, 'unauthorized');
    await expectError(await renew(`ut_${'x'.repeat(43)}`), 401, 'unauthorized');
    server.clock.advance(server.services.config.UPLOAD_TOKEN_TTL_SECONDS * 1000);
    await expectError(await renew(file.token), 401, 'unauthorized');
  });

  it('renews no token of a workspace the operator disabled (403 workspace_disabled)', async () => {
    const file = await registerFile(server, 10);
    await setWorkspaceDisabled(server.services.db, file.workspaceId, true, server.clock.now());
    const error = await expectError(await renew(file.token), 403, 'forbidden');
    expect(error.details.reason).toBe('workspace_disabled');
  });

  it('refuses to renew for a file that has finished uploading (409 upload_complete)', async () => {
    const file = await registerFile(server, 10);
    await tusUpload(randomFile(10), { endpoint: `${server.url}/files/`, token: file.token });
    const error = await expectError(await renew(file.token), 409, 'conflict');
    expect(error.details.reason).toBe('upload_complete');
  });

  it('answers the CORS preflight for the service origin only', async () => {
    const origin = new URL(server.services.config.PUBLIC_URL).origin;
    const ok = await server.fetch('/api/uploads/token', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-service-upload-token' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    expect(ok.headers.get('access-control-allow-headers')).toContain('x-service-upload-token');
    const other = await server.fetch('/api/uploads/token', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
