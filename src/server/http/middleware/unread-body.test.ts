import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../../contract/errors.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/**
 * A client that reuses connections (Node's fetch does) must never lose a request because the
 * server answered the previous one early, without reading its body: either the body is read and
 * the connection stays usable, or the answer says `Connection: close` and the client opens another.
 */

let server: TestServer;
let key: string;
let readOnlyKey: string;
beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace();
  key = await ws.createKey(['transfers:write', 'contacts:write']);
  readOnlyKey = await ws.createKey(['contacts:read']);
});
afterAll(() => server.stop());

const MB = 1_000_000;
const jsonOf = (bytes: number) => JSON.stringify({ title: 'x'.repeat(bytes), files: [] });

/** A body that arrives in `chunks` pieces over `spreadMs`, as from a slow uplink. */
function slowBody(text: string, chunks: number, spreadMs: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const size = Math.ceil(bytes.length / chunks);
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (i > 0) await new Promise((r) => setTimeout(r, spreadMs / chunks));
      controller.enqueue(bytes.subarray(i * size, (i + 1) * size));
      if (++i >= chunks) controller.close();
    },
  });
}

interface Case {
  status: number;
  method: string;
  path: string;
  headers: () => Record<string, string>;
  body: () => BodyInit;
}

const json = { 'content-type': 'application/json' };
const tusPatch = { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };

describe('an early rejection on a keep-alive connection', () => {
  it.each<[string, Case]>([
    ['401 without a credential, 500 KB body', { status: 401, method: 'POST', path: '/api/v1/transfers', headers: () => json, body: () => jsonOf(0.5 * MB) }],
    ['403 for a missing scope, 900 KB body', { status: 403, method: 'POST', path: '/api/v1/transfers', headers: () => ({ ...json, authorization: `Bearer ${readOnlyKey}` }), body: () => jsonOf(0.9 * MB) }],
    ['413 for a 2 MB body', { status: 413, method: 'POST', path: '/api/v1/transfers', headers: () => ({ ...json, authorization: `Bearer ${key}` }), body: () => jsonOf(2 * MB) }],
    ['413 for a 70 MB body', { status: 413, method: 'POST', path: '/api/v1/transfers', headers: () => ({ ...json, authorization: `Bearer ${key}` }), body: () => jsonOf(70 * MB) }],
    ['401 for a 900 KB body sent slowly', { status: 401, method: 'POST', path: '/api/v1/contacts', headers: () => json, body: () => slowBody(jsonOf(0.9 * MB), 10, 3000) }],
    ['401 from the tus endpoint, 8 MB PATCH', { status: 401, method: 'PATCH', path: '/files/fi_unknown', headers: () => tusPatch, body: () => new Uint8Array(8 * MB) }],
  ])('%s: the next request is answered', async (_, { status, method, path, headers, body }) => {
    for (let round = 0; round < 2; round++) {
      const payload = body();
      const first = await fetch(`${server.url}${path}`, { method, headers: headers(), body: payload, ...(payload instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
      expect(first.status).toBe(status);
      expect(ErrorSchema.safeParse(await first.json()).success).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      const next = await fetch(`${server.url}/healthz`);
      expect(next.status).toBe(200);
    }
  });
});
