// @module-tag scale-out — the storage back-ends themselves
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Server } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../test/s3-server.js';
import { S3Storage, type S3Settings } from './s3.js';
import type { S3UploadStore } from './s3-upload-store.js';

let s3: TestS3;
let storage: S3Storage;
beforeAll(async () => {
  s3 = await startTestS3();
  storage = new S3Storage({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true, partSize: 5 * 1024 * 1024, ...s3.credentials });
});
afterAll(() => s3.stop());

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('files in an S3-compatible bucket', () => {
  it('answers the bucket check', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('takes a tus upload in two PATCHes (as from two instances), then serves it whole and by range', async () => {
    const tus = new Server({ path: '/files', datastore: storage.tusStore() });
    const web = http.createServer((req, res) => void tus.handle(req, res));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      const data = randomBytes(12 * 1024 * 1024 + 123);
      const created = await fetch(`${base}/files`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(data.length) } });
      expect(created.status).toBe(201);
      const location = new URL(created.headers.get('location')!, base).href;
      const patch = (offset: number, body: Buffer) =>
        fetch(location, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
      expect((await patch(0, data.subarray(0, 7 * 1024 * 1024))).status).toBe(204);
      const head = await fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
      const offset = Number(head.headers.get('upload-offset'));
      // Whole parts are kept; the rest of the first request waits as an incomplete part.
      expect(offset).toBe(7 * 1024 * 1024);
      const last = await patch(offset, data.subarray(offset));
      expect(last.headers.get('upload-offset')).toBe(String(data.length));

      const id = location.split('/').pop()!;
      expect(await storage.size(id)).toBe(data.length);
      expect(sha(await readAll(storage.read(id)))).toBe(sha(data));
      const from = 5 * 1024 * 1024 - 10;
      expect((await readAll(storage.read(id, { start: from, end: from + 99 }))).equals(data.subarray(from, from + 100))).toBe(true);

      await storage.delete(id);
      expect(await storage.size(id)).toBeNull();
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it('stores a file the server made, and deletes it', async () => {
    const bytes = randomBytes(70_000);
    expect(await storage.write('fil_preview_thumb', Readable.from([bytes.subarray(0, 30_000), bytes.subarray(30_000)]))).toBe(bytes.length);
    expect((await readAll(storage.read('fil_preview_thumb'))).equals(bytes)).toBe(true);
    await storage.delete('fil_preview_thumb');
    expect(await storage.size('fil_preview_thumb')).toBeNull();
  });

  it('fails a read of a missing file as a stream error, and refuses keys that are not ids', async () => {
    await expect(readAll(storage.read('fil_missing'))).rejects.toThrow();
    expect(() => storage.read('../etc/passwd')).toThrow(/invalid storage key/);
  });
});

const MiB = 1024 * 1024;

/** A tus server on loopback over `storage`'s store; `stop` closes it. */
async function tusServer(store: S3Storage) {
  const tus = new Server({ path: '/files', datastore: store.tusStore() });
  const web = http.createServer((req, res) => void tus.handle(req, res));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  const create = async (length: number) => {
    const created = await fetch(`${base}/files`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length) } });
    expect(created.status).toBe(201);
    return new URL(created.headers.get('location')!, base).href;
  };
  const offsetOf = async (location: string) => Number((await fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })).headers.get('upload-offset'));
  const patch = (location: string, offset: number, body: Buffer) =>
    fetch(location, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
  return { create, offsetOf, patch, stop: () => new Promise((resolve) => web.close(resolve)) };
}

/** Sends the first `sent` bytes of `body` as a PATCH announcing all of it, then cuts the connection. */
function cutPatch(location: string, offset: number, body: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(location, {
      method: 'PATCH',
      agent: false,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(body.length) },
    });
    req.on('error', () => resolve());
    req.write(body.subarray(0, sent), () => setTimeout(() => {
      req.destroy();
      resolve();
    }, 200));
  });
}

/** Names of files created in a fresh TMPDIR while `fn` runs (@tus/s3-store spools parts there). */
async function tempFilesDuring(fn: () => Promise<void>): Promise<string[]> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-s3-tmp-'));
  const created: string[] = [];
  const watcher = fs.watch(dir, (_event, name) => name && created.push(name));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    watcher.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  return created;
}

describe('parts of S3 uploads', () => {
  const settings = (extra: Partial<S3Settings>): S3Settings => ({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true, partSize: 5 * MiB, ...s3.credentials, ...extra });

  it('holds parts in memory, no more than the queue per upload, and resumes a PATCH cut mid-part', async () => {
    const own = new S3Storage(settings({ uploadQueueSize: 2, uploadMemoryBytes: 64 * MiB }));
    const store = own.tusStore() as S3UploadStore;
    const tus = await tusServer(own);
    try {
      const data = randomBytes(23 * MiB + 321);
      let location = '';
      const temp = await tempFilesDuring(async () => {
        location = await tus.create(data.length);
        // 13 MiB of 23 arrive, then the connection goes: two whole parts and 3 MiB of the third.
        await cutPatch(location, 0, data, 13 * MiB);
        const offset = await tus.offsetOf(location);
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThanOrEqual(13 * MiB);
        const rest = await tus.patch(location, offset, data.subarray(offset));
        expect(rest.status).toBe(204);
        expect(rest.headers.get('upload-offset')).toBe(String(data.length));
      });
      const id = location.split('/').pop()!;
      expect(sha(await readAll(own.read(id)))).toBe(sha(data));
      // No part went through a temporary file, and one upload held at most `queueSize` parts.
      expect(temp).toEqual([]);
      expect(store.buffers.peakInUse).toBeGreaterThan(0);
      expect(store.buffers.peakInUse).toBeLessThanOrEqual(2 * 5 * MiB);
      await own.delete(id);
    } finally {
      await tus.stop();
    }
  });

  it('keeps all uploads of a process within the memory budget, spooling to temporary files what does not fit', async () => {
    // Room for one part: of two uploads at once, one waits or spools; both complete intact.
    const own = new S3Storage(settings({ uploadQueueSize: 4, uploadMemoryBytes: 5 * MiB }));
    const store = own.tusStore() as S3UploadStore;
    const tus = await tusServer(own);
    try {
      const uploads = [randomBytes(16 * MiB + 5), randomBytes(11 * MiB + 7)];
      const locations = await Promise.all(uploads.map((d) => tus.create(d.length)));
      const answers = await Promise.all(uploads.map((d, i) => tus.patch(locations[i]!, 0, d)));
      expect(answers.map((a) => a.headers.get('upload-offset'))).toEqual(uploads.map((d) => String(d.length)));
      for (const [i, d] of uploads.entries()) {
        const id = locations[i]!.split('/').pop()!;
        expect(sha(await readAll(own.read(id)))).toBe(sha(d));
        await own.delete(id);
      }
      expect(store.buffers.peak).toBeLessThanOrEqual(5 * MiB);
    } finally {
      await tus.stop();
    }
  });
});
