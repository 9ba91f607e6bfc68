import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema, errorStatus, type ErrorCode } from '../../contract/errors.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { randomFile, registerFile, type RegisteredFile } from './testing.js';

/**
 * Every refusal of the tus endpoint, as a table (the way tusd tests its handler): the status tus 1.0
 * gives the condition, and an Error body whose code is the one the spec pairs with that status.
 */

let server: TestServer;
let endpoint: string;
beforeAll(async () => {
  server = await startTestServer();
  endpoint = `${server.url}/files/`;
});
afterAll(() => server.stop());

interface Refusal {
  name: string;
  /** Makes the request for a 1000-byte file whose upload was created with 100 bytes in it. */
  request: (file: RegisteredFile) => Promise<Response>;
  status: number;
  code: ErrorCode;
  headers?: Record<string, string>;
}

const base = (file: RegisteredFile, extra: Record<string, string> = {}) => ({
  'Tus-Resumable': '1.0.0',
  'x-service-upload-token': file.token,
  ...extra,
});
const patchHeaders = { 'Upload-Offset': '100', 'Content-Type': 'application/offset+octet-stream' };
const url = (file: RegisteredFile) => `${endpoint}${file.fileId}`;
const body = new Uint8Array(randomFile(50));

const refusals: Refusal[] = [
  {
    name: 'PATCH without Upload-Offset',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, { 'Content-Type': 'application/offset+octet-stream' }), body }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'PATCH with a non-numeric Upload-Offset',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, { ...patchHeaders, 'Upload-Offset': '0x64' }), body }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'PATCH with Content-Type text/plain',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, { ...patchHeaders, 'Content-Type': 'text/plain' }), body }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'PATCH without Content-Type',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, { 'Upload-Offset': '100' }), body: new Blob([body]) }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'PATCH at the wrong offset',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, { ...patchHeaders, 'Upload-Offset': '40' }), body }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'PATCH past the registered size',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: base(f, patchHeaders), body: new Uint8Array(randomFile(5000)) }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'PATCH without Tus-Resumable',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: { 'x-service-upload-token': f.token, ...patchHeaders }, body }),
    status: 412,
    code: 'precondition_failed',
    headers: { 'tus-version': '1.0.0' },
  },
  {
    name: 'HEAD with an unsupported Tus-Resumable',
    request: (f) => fetch(url(f), { method: 'HEAD', headers: base(f, { 'Tus-Resumable': '0.2.2' }) }),
    status: 412,
    code: 'precondition_failed',
    headers: { 'tus-version': '1.0.0' },
  },
  {
    name: 'PATCH without an upload token',
    request: (f) => fetch(url(f), { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', ...patchHeaders }, body }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: "PATCH with another file's token",
    request: async (f) => {
      const other = await registerFile(server, 1000);
      return fetch(url(f), { method: 'PATCH', headers: base(other, patchHeaders), body });
    },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'POST with a bad Upload-Length',
    request: (f) => fetch(endpoint, { method: 'POST', headers: base(f, { 'Upload-Length': '1e3' }) }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST of an upload that already exists',
    request: (f) => fetch(endpoint, { method: 'POST', headers: base(f, { 'Upload-Length': '1000' }) }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'GET of an upload',
    request: (f) => fetch(url(f), { headers: base(f) }),
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'PATCH of an unknown upload id',
    request: (f) => fetch(`${endpoint}fi_doesnotexist`, { method: 'PATCH', headers: base(f, patchHeaders), body }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'PATCH of a path that is no upload',
    request: (f) => fetch(`${endpoint}a/b`, { method: 'PATCH', headers: base(f, patchHeaders), body }),
    status: 404,
    code: 'not_found',
  },
];

describe('tus refusals', () => {
  it.each(refusals.map((r) => [r.name, r] as const))('%s', async (_, refusal) => {
    const file = await registerFile(server, 1000);
    const created = await fetch(endpoint, { method: 'POST', headers: base(file, { 'Upload-Length': '1000' }) });
    expect(created.status).toBe(201);
    const first = await fetch(url(file), { method: 'PATCH', headers: base(file, { ...patchHeaders, 'Upload-Offset': '0' }), body: new Uint8Array(randomFile(100)) });
    expect(first.status).toBe(204);

    const res = await refusal.request(file);
    expect(res.status).toBe(refusal.status);
    expect(errorStatus[refusal.code]).toBe(refusal.status);
    for (const [name, value] of Object.entries(refusal.headers ?? {})) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // HEAD answers carry no body; every other refusal says what it is.
    const text = await res.text();
    if (refusal.name.startsWith('HEAD')) expect(text).toBe('');
    else {
      const { error } = ErrorSchema.parse(JSON.parse(text));
      expect(error.code).toBe(refusal.code);
      expect(errorStatus[error.code as ErrorCode]).toBe(res.status);
    }
    // A refusal never moves the upload: the next correct PATCH continues at 100.
    if (refusal.status !== 401 && refusal.status !== 404) {
      const head = await fetch(url(file), { method: 'HEAD', headers: base(file) });
      expect(head.headers.get('upload-offset')).toBe('100');
    }
  });
});
