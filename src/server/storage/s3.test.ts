// @module-tag scale-out — the storage back-ends themselves
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Server } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../test/s3-server.js';
import { S3Storage } from './s3.js';

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
