// @module-tag scale-out — upload bytes land in the configured storage
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema, errorStatus, type ErrorCode } from '../../contract/errors.js';
import { transfers } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { randomFile, registerFile, type RegisteredFile } from '../test/uploads.js';

/**
 * Every refusal of the tus endpoint, as a table (the way tusd tests its handler): the request, the
 * status tus 1.0 gives the condition, and an Error body in JSON whose code is the one `errorStatus`
 * pairs with that status.
 */

let server: TestServer;
let endpoint: string;
beforeAll(async () => {
  server = await startTestServer();
  endpoint = `${server.url}/files/`;
});
afterAll(() => server.stop());

const SIZE = 1000;
const SENT = 100;

/**
 * The file before the request, always registered with SIZE bytes: `uploading` has its upload
 * created with the first SENT bytes in it, `registered` has no upload yet, `complete` has all its
 * bytes, and `ended` is `uploading` in a transfer that has since expired.
 */
type Given = 'uploading' | 'registered' | 'complete' | 'ended';

interface Refusal {
  name: string;
  given?: Given;
  request: (file: RegisteredFile) => Promise<Response>;
  status: number;
  code: ErrorCode;
  /** Response headers the refusal must carry (null: must not carry). */
  headers?: Record<string, string | null>;
  /** `details.reason`, for codes that stand for several conditions. */
  reason?: string;
  /** The header named in `details.fields`. */
  field?: string;
}

const base = (file: RegisteredFile, extra: Record<string, string> = {}) => ({
  'Tus-Resumable': '1.0.0',
  'x-service-upload-token': file.token,
  ...extra,
});
const patchHeaders = { 'Upload-Offset': String(SENT), 'Content-Type': 'application/offset+octet-stream' };
const url = (file: RegisteredFile) => `${endpoint}${file.fileId}`;
const body = new Uint8Array(randomFile(50));
const patchWith = (f: RegisteredFile, headers: Record<string, string>, payload: BodyInit = body) =>
  fetch(url(f), { method: 'PATCH', headers, body: payload });
const create = (f: RegisteredFile, extra: Record<string, string> = {}) =>
  fetch(endpoint, { method: 'POST', headers: base(f, { 'Upload-Length': String(SIZE), ...extra }) });

const refusals: Refusal[] = [
  // Protocol version: checked before anything else, answered with the versions we speak.
  {
    name: 'PATCH without Tus-Resumable',
    request: (f) => patchWith(f, { 'x-service-upload-token': f.token, ...patchHeaders }),
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
    name: 'POST with an unsupported Tus-Resumable',
    given: 'registered',
    request: (f) => create(f, { 'Tus-Resumable': '2.0.0' }),
    status: 412,
    code: 'precondition_failed',
    headers: { 'tus-version': '1.0.0' },
  },

  // The upload token.
  {
    name: 'PATCH without an upload token',
    request: (f) => patchWith(f, { 'Tus-Resumable': '1.0.0', ...patchHeaders }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'HEAD with a malformed upload token',
    request: (f) => fetch(url(f), { method: 'HEAD', headers: base(f, { 'x-service-upload-token': 'ut_nope' }) }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: "PATCH with another file's token",
    request: async (f) => patchWith(f, base(await registerFile(server, SIZE), patchHeaders)),
    status: 401,
    code: 'unauthorized',
  },
  {
    // A token only opens its own file, so an id it does not open is refused like a bad token.
    name: 'PATCH of an unknown upload id',
    request: (f) => fetch(`${endpoint}fil_doesnotexist`, { method: 'PATCH', headers: base(f, patchHeaders), body }),
    status: 401,
    code: 'unauthorized',
  },

  // PATCH headers.
  {
    name: 'PATCH without Upload-Offset',
    request: (f) => patchWith(f, base(f, { 'Content-Type': 'application/offset+octet-stream' })),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Offset',
  },
  {
    name: 'PATCH with a non-numeric Upload-Offset',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Offset': '0x64' })),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Offset',
  },
  {
    name: 'PATCH with a zero-padded Upload-Offset',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Offset': `0${SENT}` })),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Offset',
  },
  {
    name: 'PATCH with Content-Type text/plain',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Content-Type': 'text/plain' })),
    status: 415,
    code: 'unsupported_media_type',
    field: 'Content-Type',
  },
  {
    name: 'PATCH with a parameter on its Content-Type',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Content-Type': 'application/offset+octet-stream; charset=binary' })),
    status: 415,
    code: 'unsupported_media_type',
    field: 'Content-Type',
  },
  {
    name: 'PATCH without Content-Type',
    request: (f) => patchWith(f, base(f, { 'Upload-Offset': String(SENT) }), new Blob([body])),
    status: 415,
    code: 'unsupported_media_type',
    field: 'Content-Type',
  },
  {
    name: 'PATCH declaring Upload-Length (a deferred length)',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Length': String(SIZE) })),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Length',
  },

  // The upload's state.
  {
    name: 'PATCH at the wrong offset',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Offset': '40' })),
    status: 409,
    code: 'conflict',
    reason: 'offset_mismatch',
  },
  {
    name: 'PATCH past the registered size',
    request: (f) => patchWith(f, base(f, patchHeaders), new Uint8Array(randomFile(5000))),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'PATCH of a completed upload',
    given: 'complete',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Offset': String(SIZE) })),
    status: 409,
    code: 'conflict',
    reason: 'upload_complete',
  },
  {
    name: 'DELETE of a completed upload',
    given: 'complete',
    request: (f) => fetch(url(f), { method: 'DELETE', headers: base(f) }),
    status: 409,
    code: 'conflict',
    reason: 'upload_complete',
  },
  {
    name: 'HEAD of an upload that was never created',
    given: 'registered',
    request: (f) => fetch(url(f), { method: 'HEAD', headers: base(f) }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'PATCH of an upload that was never created',
    given: 'registered',
    request: (f) => patchWith(f, base(f, { ...patchHeaders, 'Upload-Offset': '0' })),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'DELETE of an upload that was never created',
    given: 'registered',
    request: (f) => fetch(url(f), { method: 'DELETE', headers: base(f) }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'HEAD of an upload whose transfer has ended',
    given: 'ended',
    request: (f) => fetch(url(f), { method: 'HEAD', headers: base(f) }),
    status: 410,
    code: 'gone',
  },
  {
    name: 'PATCH of an upload whose transfer has ended',
    given: 'ended',
    request: (f) => patchWith(f, base(f, patchHeaders)),
    status: 410,
    code: 'gone',
  },

  // Creation.
  {
    name: 'POST with a bad Upload-Length',
    given: 'registered',
    request: (f) => create(f, { 'Upload-Length': '1e3' }),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Length',
  },
  {
    name: 'POST with an Upload-Length other than the registered size',
    given: 'registered',
    request: (f) => create(f, { 'Upload-Length': String(SIZE + 1) }),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Length',
  },
  {
    name: 'POST with Upload-Defer-Length',
    given: 'registered',
    request: (f) => fetch(endpoint, { method: 'POST', headers: base(f, { 'Upload-Defer-Length': '1' }) }),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Defer-Length',
  },
  {
    name: 'POST with Upload-Concat',
    given: 'registered',
    request: (f) => create(f, { 'Upload-Concat': 'partial' }),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Concat',
  },
  {
    name: 'POST with malformed Upload-Metadata',
    given: 'registered',
    request: (f) => create(f, { 'Upload-Metadata': 'filename not*base64' }),
    status: 400,
    code: 'invalid_request',
    field: 'Upload-Metadata',
  },
  {
    name: 'POST of an upload that already exists',
    request: (f) => create(f),
    status: 409,
    code: 'conflict',
    reason: 'upload_exists',
  },
  {
    name: 'POST for a file whose transfer has ended',
    given: 'ended',
    request: (f) => create(f),
    status: 410,
    code: 'gone',
  },

  // Methods and paths.
  {
    name: 'GET of an upload',
    request: (f) => fetch(url(f), { headers: base(f) }),
    status: 405,
    code: 'method_not_allowed',
    headers: { allow: 'HEAD, PATCH, DELETE, OPTIONS' },
  },
  {
    name: 'PUT on an upload',
    request: (f) => fetch(url(f), { method: 'PUT', headers: base(f), body }),
    status: 405,
    code: 'method_not_allowed',
    headers: { allow: 'HEAD, PATCH, DELETE, OPTIONS' },
  },
  {
    name: 'PATCH of the collection',
    request: (f) => fetch(endpoint, { method: 'PATCH', headers: base(f, patchHeaders), body }),
    status: 405,
    code: 'method_not_allowed',
    headers: { allow: 'POST, OPTIONS' },
  },
  {
    name: 'PATCH of a path that is no upload',
    request: (f) => fetch(`${endpoint}a/b`, { method: 'PATCH', headers: base(f, patchHeaders), body }),
    status: 404,
    code: 'not_found',
  },
];

async function prepare(given: Given): Promise<RegisteredFile> {
  const file = await registerFile(server, SIZE);
  if (given === 'registered') return file;
  expect((await create(file)).status).toBe(201);
  const sent = given === 'complete' ? SIZE : SENT;
  const first = await patchWith(file, base(file, { ...patchHeaders, 'Upload-Offset': '0' }), new Uint8Array(randomFile(sent)));
  expect(first.status).toBe(204);
  if (given === 'ended') await server.services.db.update(transfers).set({ status: 'expired' }).where(eq(transfers.id, file.transferId));
  return file;
}

describe('tus refusals', () => {
  it.each(refusals.map((r) => [r.name, r] as const))('%s', async (_, refusal) => {
    const given = refusal.given ?? 'uploading';
    const file = await prepare(given);

    const res = await refusal.request(file);
    expect(res.status).toBe(refusal.status);
    expect(errorStatus[refusal.code]).toBe(refusal.status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    for (const [name, value] of Object.entries(refusal.headers ?? {})) expect(res.headers.get(name)).toBe(value);

    // HEAD answers carry no body; every other refusal says what it is.
    const text = await res.text();
    if (refusal.name.startsWith('HEAD')) expect(text).toBe('');
    else {
      const { error } = ErrorSchema.parse(JSON.parse(text));
      expect(error.code).toBe(refusal.code);
      expect(errorStatus[error.code as ErrorCode]).toBe(res.status);
      expect(error.docs).toMatch(new RegExp(`/docs/errors#${error.code}$`));
      if (refusal.reason) expect(error.details.reason).toBe(refusal.reason);
      if (refusal.field) expect(error.details.fields).toEqual([expect.objectContaining({ path: refusal.field })]);
    }

    // A refusal never moves the upload.
    if (given === 'uploading') {
      const head = await fetch(url(file), { method: 'HEAD', headers: base(file) });
      expect(head.headers.get('upload-offset')).toBe(String(SENT));
    }
  });
});
