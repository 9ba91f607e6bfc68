// @module-tag scale-out — upload bytes land in the configured storage
import fs from 'node:fs/promises';
import http from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, transfers } from '../db/schema/index.js';
import { expectError, startTestServer, type TestServer } from '../test/harness.js';
import { setWorkspaceDisabled } from '../workspaces/operator.js';
import {
  addFile,
  createTransfer,
  crcOf,
  fileRow,
  randomFile,
  registerFile,
  storedBytes,
  storedLength,
  tusUpload,
  type RegisteredFile,
} from '../test/uploads.js';

const MB = 1024 * 1024;
let server: TestServer;
let endpoint: string;

beforeAll(async () => {
  server = await startTestServer();
  endpoint = `${server.url}/files/`;
});
afterAll(() => server.stop());

const tusHeaders = (token: string | null, extra: Record<string, string> = {}) => ({
  'Tus-Resumable': '1.0.0',
  ...(token === null ? {} : { 'x-service-upload-token': token }),
  ...extra,
});

async function create(file: RegisteredFile, size: number, token: string | null = file.token) {
  return fetch(endpoint, { method: 'POST', headers: tusHeaders(token, { 'Upload-Length': String(size) }) });
}

async function patch(fileId: string, token: string | null, offset: number, body: Buffer) {
  return fetch(`${endpoint}${fileId}`, {
    method: 'PATCH',
    headers: tusHeaders(token, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
    body: new Uint8Array(body),
  });
}

async function head(fileId: string, token: string | null) {
  return fetch(`${endpoint}${fileId}`, { method: 'HEAD', headers: tusHeaders(token) });
}

async function expectComplete(file: RegisteredFile, bytes: Buffer) {
  // Buffer.equals: Vitest's deep equality walks a Buffer byte by byte and takes seconds per MB.
  const stored = await storedBytes(server.services, file.fileId);
  expect(stored?.length).toBe(bytes.length);
  expect(stored?.equals(bytes)).toBe(true);
  const row = await fileRow(server.services, file.fileId);
  expect(row.state).toBe('complete');
  expect(row.crc32).toBe(crcOf(bytes));
  expect(row.completedAt).toEqual(server.clock.now());
}

describe('tus uploads', () => {
  it('uploads a 3 MB file in 1 MB chunks: bytes stored as sent, CRC-32 recorded, file complete', async () => {
    const bytes = randomFile(3 * MB + 12345);
    const file = await registerFile(server, bytes.length);
    const { url } = await tusUpload(bytes, { endpoint, token: file.token });
    expect(url).toBe(`${server.url}/files/${file.fileId}`);
    await expectComplete(file, bytes);
  });

  it('answers creation with a relative Location named by the file id, and Upload-Expires from the transfer', async () => {
    const file = await registerFile(server, 10);
    const res = await create(file, 10);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/files/${file.fileId}`);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    expect(res.headers.get('upload-expires')).toMatch(/GMT$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('pauses after the first chunk and resumes from the upload URL', async () => {
    const bytes = randomFile(2 * MB + 777);
    const file = await registerFile(server, bytes.length);
    const first = await tusUpload(bytes, { endpoint, token: file.token, stopAfterChunk: () => true });
    expect(first.stopped).toBe(true);
    const partial = await fileRow(server.services, file.fileId);
    expect(partial.state).toBe('uploading');
    expect(partial.crcOffset).toBe(MB);
    await tusUpload(bytes, { uploadUrl: first.url, token: file.token });
    await expectComplete(file, bytes);
  });

  it('uploads the body of the creation request (creation-with-upload)', async () => {
    const bytes = randomFile(1000);
    const file = await registerFile(server, bytes.length);
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: tusHeaders(file.token, { 'Upload-Length': '1000', 'Content-Type': 'application/offset+octet-stream' }),
      body: bytes,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('1000');
    expect(res.headers.get('upload-expires')).toBeNull();
    await expectComplete(file, bytes);
  });

  it('completes a zero-byte file as soon as its upload is created', async () => {
    const file = await registerFile(server, 0);
    const res = await create(file, 0);
    expect(res.status).toBe(201);
    const row = await fileRow(server.services, file.fileId);
    expect(row.state).toBe('complete');
    expect(row.crc32).toBe('00000000');
    expect(row.completedAt).toEqual(server.clock.now());
    expect(await storedBytes(server.services, file.fileId)).toEqual(Buffer.alloc(0));
  });

  it('refuses a second creation for the same file without touching its bytes', async () => {
    const bytes = randomFile(5000);
    const file = await registerFile(server, bytes.length);
    expect((await create(file, bytes.length)).status).toBe(201);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 2000))).status).toBe(204);
    const error = await expectError(await create(file, bytes.length), 409, 'conflict');
    expect(error.details.reason).toBe('upload_exists');
    expect(await storedLength(server.services, file.fileId)).toBe(2000);
    await tusUpload(bytes, { uploadUrl: `${endpoint}${file.fileId}`, token: file.token });
    await expectComplete(file, bytes);
  });

  it('refuses PATCH and DELETE on a completed file, and still answers its HEAD', async () => {
    const bytes = randomFile(100);
    const file = await registerFile(server, bytes.length);
    await tusUpload(bytes, { endpoint, token: file.token });
    const error = await expectError(await patch(file.fileId, file.token, 100, Buffer.alloc(0)), 409, 'conflict');
    expect(error.details.reason).toBe('upload_complete');
    const del = await fetch(`${endpoint}${file.fileId}`, { method: 'DELETE', headers: tusHeaders(file.token) });
    await expectError(del, 409, 'conflict');
    const h = await head(file.fileId, file.token);
    expect(h.status).toBe(200);
    expect(h.headers.get('upload-offset')).toBe('100');
    await expectComplete(file, bytes);
  });

  it('terminates an unfinished upload with DELETE, after which it can start over', async () => {
    const bytes = randomFile(3000);
    const file = await registerFile(server, bytes.length);
    await create(file, bytes.length);
    expect((await patch(file.fileId, file.token, 0, randomFile(1000))).status).toBe(204);
    const del = await fetch(`${endpoint}${file.fileId}`, { method: 'DELETE', headers: tusHeaders(file.token) });
    expect(del.status).toBe(204);
    expect(await storedLength(server.services, file.fileId)).toBeNull();
    expect((await fileRow(server.services, file.fileId)).crcOffset).toBe(0);
    await tusUpload(bytes, { endpoint, token: file.token });
    await expectComplete(file, bytes);
  });
});

describe('CRC repair', () => {
  // These tests change stored bytes behind the server's back, which only disk storage allows; on
  // S3 the running CRC is checked by the multi-instance test (an upload resumed on another instance).
  let shared: TestServer;
  beforeAll(async () => {
    shared = server;
    server = await startTestServer({}, { storage: 'disk' });
    endpoint = `${server.url}/files/`;
  });
  afterAll(async () => {
    await server.stop();
    server = shared;
    endpoint = `${server.url}/files/`;
  });

  it('repairs after the connection drops in the middle of a PATCH', async () => {
    const bytes = randomFile(2 * MB);
    const file = await registerFile(server, bytes.length);
    expect((await create(file, bytes.length)).status).toBe(201);

    // Stream part of the body, then drop the connection.
    const url = new URL(`${endpoint}${file.fileId}`);
    await new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: 'PATCH',
        headers: {
          ...tusHeaders(file.token, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
          'Content-Length': String(bytes.length),
        },
      });
      req.on('error', () => resolve());
      req.write(bytes.subarray(0, 700 * 1024), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    });

    // HEAD waits for the aborted PATCH to let go of the upload.
    const h = await head(file.fileId, file.token);
    expect(h.status).toBe(200);
    const offset = Number(h.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(bytes.length);
    expect((await storedBytes(server.services, file.fileId))?.equals(bytes.subarray(0, offset))).toBe(true);
    // The aborted write failed, so the database never counted those bytes: the next PATCH repairs.
    expect((await fileRow(server.services, file.fileId)).crcOffset).toBe(0);

    await tusUpload(bytes, { uploadUrl: url.toString(), token: file.token, chunkSize: 512 * 1024 });
    await expectComplete(file, bytes);
  });

  it('repairs bytes that reached the disk without the database counting them', async () => {
    const bytes = randomFile(3 * 256 * 1024 + 5);
    const file = await registerFile(server, bytes.length);
    await create(file, bytes.length);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 256 * 1024))).status).toBe(204);
    expect((await fileRow(server.services, file.fileId)).crcOffset).toBe(256 * 1024);
    // As if the process died after writing the next bytes but before saving the CRC state.
    await fs.appendFile(`${server.dataDir}/files/${file.fileId}`, bytes.subarray(256 * 1024, 600 * 1024));

    const h = await head(file.fileId, file.token);
    expect(h.headers.get('upload-offset')).toBe(String(600 * 1024));
    expect((await patch(file.fileId, file.token, 600 * 1024, bytes.subarray(600 * 1024, 700 * 1024))).status).toBe(204);
    const row = await fileRow(server.services, file.fileId);
    expect(row.crcOffset).toBe(700 * 1024);
    await tusUpload(bytes, { uploadUrl: `${endpoint}${file.fileId}`, token: file.token });
    await expectComplete(file, bytes);
  });

  it('recomputes from the start when the saved state is ahead of the stored bytes', async () => {
    const bytes = randomFile(200_000);
    const file = await registerFile(server, bytes.length);
    await create(file, bytes.length);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 100_000))).status).toBe(204);
    await fs.truncate(`${server.dataDir}/files/${file.fileId}`, 40_000);
    await tusUpload(bytes, { uploadUrl: `${endpoint}${file.fileId}`, token: file.token });
    await expectComplete(file, bytes);
  });

  it('completes on HEAD when every byte was stored but the completion was lost', async () => {
    const bytes = randomFile(50_000);
    const file = await registerFile(server, bytes.length);
    await create(file, bytes.length);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 20_000))).status).toBe(204);
    await fs.appendFile(`${server.dataDir}/files/${file.fileId}`, bytes.subarray(20_000));
    const h = await head(file.fileId, file.token);
    expect(h.headers.get('upload-offset')).toBe('50000');
    await expectComplete(file, bytes);
  });
});

describe('upload tokens on tus requests', () => {
  let file: RegisteredFile;
  let other: RegisteredFile;
  const bytes = randomFile(4000);

  beforeAll(async () => {
    file = await registerFile(server, bytes.length);
    other = await registerFile(server, bytes.length);
    expect((await create(file, bytes.length)).status).toBe(201);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 1000))).status).toBe(204);
  });

  const storedSoFar = () => storedLength(server.services, file.fileId);

  it.each([
    ['missing', () => null],
    ['malformed', () => 'ut_not-a-token'],
    ['unknown', () => `ut_${'A'.repeat(43)}`],
    ['for another file', () => other.token],
  ])('refuses a %s token with 401 in the Error shape and writes nothing', async (_name, token) => {
    await expectError(await patch(file.fileId, token(), 1000, bytes.subarray(1000, 3000)), 401, 'unauthorized');
    const h = await head(file.fileId, token());
    expect(h.status).toBe(401);
    expect(h.headers.get('upload-offset')).toBeNull();
    const del = await fetch(`${endpoint}${file.fileId}`, { method: 'DELETE', headers: tusHeaders(token()) });
    await expectError(del, 401, 'unauthorized');
    expect(await storedSoFar()).toBe(1000);
  });

  it('refuses creation without a valid token', async () => {
    const fresh = await registerFile(server, 10);
    await expectError(await create(fresh, 10, null), 401, 'unauthorized');
    await expectError(await create(fresh, 10, 'ut_bad'), 401, 'unauthorized');
    expect(await storedLength(server.services, fresh.fileId)).toBeNull();
  });

  it('refuses an expired token', async () => {
    const later = await registerFile(server, 10);
    const ttl = server.services.config.UPLOAD_TOKEN_TTL_SECONDS;
    server.clock.advance((ttl + 1) * 1000);
    try {
      await expectError(await patch(file.fileId, file.token, 1000, bytes.subarray(1000, 3000)), 401, 'unauthorized');
      await expectError(await create(later, 10), 401, 'unauthorized');
      expect(await storedSoFar()).toBe(1000);
    } finally {
      server.clock.advance(-(ttl + 1) * 1000);
    }
  });
});

describe('exact size', () => {
  it.each(['999', '1001', 'abc', ''])('refuses Upload-Length %j for a 1000-byte file with 400 naming Upload-Length', async (length) => {
    const file = await registerFile(server, 1000);
    const res = await fetch(endpoint, { method: 'POST', headers: tusHeaders(file.token, { 'Upload-Length': length }) });
    const error = await expectError(res, 400, 'invalid_request');
    expect(error.details.fields).toEqual([expect.objectContaining({ path: 'Upload-Length' })]);
    expect(await storedLength(server.services, file.fileId)).toBeNull();
  });

  it('refuses Upload-Defer-Length', async () => {
    const file = await registerFile(server, 1000);
    const res = await fetch(endpoint, { method: 'POST', headers: tusHeaders(file.token, { 'Upload-Defer-Length': '1' }) });
    const error = await expectError(res, 400, 'invalid_request');
    expect(error.details.fields).toEqual([expect.objectContaining({ path: 'Upload-Defer-Length' })]);
  });

  it('refuses bytes past the registered length, with or without Content-Length', async () => {
    const bytes = randomFile(300_000);
    const file = await registerFile(server, bytes.length);
    await create(file, bytes.length);
    expect((await patch(file.fileId, file.token, 0, bytes.subarray(0, 100_000))).status).toBe(204);

    // Declared too long: refused before a byte is read.
    await expectError(await patch(file.fileId, file.token, 100_000, randomFile(250_000)), 413, 'payload_too_large');
    expect(await storedLength(server.services, file.fileId)).toBe(100_000);

    // Chunked, running past the end: cut off, and the file never grows past its size.
    const tooLong = Buffer.concat([bytes.subarray(100_000), randomFile(100_000)]);
    const res = await fetch(`${endpoint}${file.fileId}`, {
      method: 'PATCH',
      headers: tusHeaders(file.token, { 'Upload-Offset': '100000', 'Content-Type': 'application/offset+octet-stream' }),
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < tooLong.length; i += 16 * 1024) controller.enqueue(tooLong.subarray(i, i + 16 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await expectError(res, 413, 'payload_too_large');
    expect(await storedLength(server.services, file.fileId)).toBeLessThanOrEqual(bytes.length);
    if (server.services.storage.readsUnfinishedUploads) {
      // Where the stored prefix can be read before completion, it is exactly what was sent (on S3 the final check below shows it).
      const stored = await storedBytes(server.services, file.fileId);
      expect(stored!.equals(bytes.subarray(0, stored!.length))).toBe(true);
    }
    expect((await fileRow(server.services, file.fileId)).state).toBe('uploading');

    // The rest still goes through, and the CRC is right.
    await tusUpload(bytes, { uploadUrl: `${endpoint}${file.fileId}`, token: file.token });
    await expectComplete(file, bytes);
  });
});

describe('transfer.ready', () => {
  it('is emitted once, when the last file of a sent transfer completes', async () => {
    const ws = await server.createWorkspace();
    const transferId = await createTransfer(server.services, ws.id, { finalized: true });
    const a = await addFile(server.services, transferId, ws.id, 1000);
    const b = await addFile(server.services, transferId, ws.id, 2000);
    const readyEvents = () =>
      server.services.db.select().from(events).where(and(eq(events.subjectId, transferId), eq(events.type, 'transfer.ready')));

    await tusUpload(randomFile(1000), { endpoint, token: a.token });
    expect(await readyEvents()).toHaveLength(0);
    await tusUpload(randomFile(2000), { endpoint, token: b.token });
    const ready = await readyEvents();
    expect(ready).toHaveLength(1);
    expect(ready[0]!.workspaceId).toBe(ws.id);
    // A repeated completion (HEAD on a finished upload) emits nothing more.
    await head(b.fileId, b.token);
    expect(await readyEvents()).toHaveLength(1);
  });

  it('is not emitted for a draft; files of a sent transfer may still be uploading', async () => {
    const ws = await server.createWorkspace();
    const transferId = await createTransfer(server.services, ws.id);
    const a = await addFile(server.services, transferId, ws.id, 10);
    await tusUpload(randomFile(10), { endpoint, token: a.token });
    expect((await fileRow(server.services, a.fileId)).state).toBe('complete');
    const ready = await server.services.db.select().from(events).where(eq(events.subjectId, transferId));
    expect(ready).toHaveLength(0);
  });

  it('stops every upload token of a workspace the operator disabled at once: creation, PATCH and HEAD are 403 workspace_disabled', async () => {
    const bytes = randomFile(3000);
    const started = await registerFile(server, bytes.length);
    expect((await create(started, bytes.length)).status).toBe(201);
    expect((await patch(started.fileId, started.token, 0, bytes.subarray(0, 1000))).status).toBe(204);
    const fresh = await addFile(server.services, started.transferId, started.workspaceId, 10);

    await setWorkspaceDisabled(server.services.db, started.workspaceId, true, server.clock.now());
    try {
      const refused = [await patch(started.fileId, started.token, 1000, bytes.subarray(1000, 2000)), await create(fresh, 10)];
      for (const res of refused) expect((await expectError(res, 403, 'forbidden')).details.reason).toBe('workspace_disabled');
      expect((await head(started.fileId, started.token)).status).toBe(403);
      expect(await storedLength(server.services, started.fileId)).toBe(1000);
      expect(await storedLength(server.services, fresh.fileId)).toBeNull();
    } finally {
      await setWorkspaceDisabled(server.services.db, started.workspaceId, false, server.clock.now());
    }
    // Enabled again, the same tokens carry on.
    expect((await patch(started.fileId, started.token, 1000, bytes.subarray(1000, 3000))).status).toBe(204);
    await expectComplete(started, bytes);
  });

  it('refuses uploads to a transfer that is no longer active with 410 gone', async () => {
    const file = await registerFile(server, 10);
    await server.services.db.update(transfers).set({ status: 'expired' }).where(eq(transfers.id, file.transferId));
    await expectError(await create(file, 10), 410, 'gone');
    expect(await storedLength(server.services, file.fileId)).toBeNull();
  });
});

describe('CORS', () => {
  const origin = () => new URL(server.services.config.PUBLIC_URL).origin;

  it('answers the preflight from the service origin with the tus headers', async () => {
    const res = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: { Origin: origin(), 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'upload-length, x-service-upload-token' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin());
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, HEAD, PATCH, DELETE, OPTIONS');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    for (const h of ['tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'content-type', 'x-service-upload-token']) {
      expect(allowed).toContain(h);
    }
    expect(allowed).not.toContain('authorization');
    const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['Location', 'Upload-Offset', 'Upload-Length', 'Upload-Expires', 'Tus-Resumable']));
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,expiration');
  });

  it('gives another origin no Access-Control-Allow-Origin', async () => {
    const preflight = await fetch(`${endpoint}fil_x`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const file = await registerFile(server, 10);
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { ...tusHeaders(file.token, { 'Upload-Length': '10' }), Origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('puts CORS headers on refusals to the service origin, so a browser can read them', async () => {
    const res = await fetch(`${server.url}/files`, { method: 'POST', headers: { ...tusHeaders(null, { 'Upload-Length': '10' }), Origin: origin() } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin());
    // The message is written in the request's language, so the answer varies by Accept-Language too.
    expect(res.headers.get('vary')?.split(/,\s*/).sort()).toEqual(['Accept-Language', 'Origin']);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
  });
});

describe('routing', () => {
  it('does not serve uploads with GET, and answers unknown paths under /files with 404', async () => {
    const file = await registerFile(server, 10);
    await tusUpload(randomFile(10), { endpoint, token: file.token });
    await expectError(await fetch(`${endpoint}${file.fileId}`, { headers: tusHeaders(file.token) }), 405, 'method_not_allowed');
    await expectError(await fetch(`${endpoint}a/b`, { method: 'PATCH', headers: tusHeaders(file.token) }), 404, 'not_found');
    await expectError(await fetch(`${endpoint}${file.fileId}`, { method: 'POST', headers: tusHeaders(file.token) }), 405, 'method_not_allowed');
  });
});
