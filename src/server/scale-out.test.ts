// @module-tag scale-out — two instances on one database, Redis and S3
import { operatorActor } from './activity/activity.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListPartsCommand, S3Client } from '@aws-sdk/client-s3';
import { crc32 } from '@node-rs/crc32';
import { eq } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './auth/api-keys.js';
import { loadConfig } from './config.js';
import { files, transfers } from './db/schema/index.js';
import { createLogger } from './logger.js';
import { startServer, type RunningServer } from './assembly/runtime.js';
import type { S3Storage } from './storage/s3.js';
import { createTestDatabase, dropTestDatabase, s3ForTest } from './test/harness.js';
import { tusUpload } from './test/uploads.js';
import { createWorkspaceWithOwner } from './workspaces/accounts.js';

/**
 * The scale-out configuration as an operator runs it: two stateless web instances (RUN_WORKER=0,
 * each with its own empty DATA_DIR) and one `npm run worker` process, sharing one PostgreSQL, one
 * S3-compatible bucket and Redis. Uploads move between instances mid-file, downloads are served by
 * the instance that did not take the upload, and only the worker runs sweeps and webhook deliveries.
 */

const MB = 1024 * 1024;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let s3: Awaited<ReturnType<typeof s3ForTest>>;
let storageEnv: Record<string, string>;
let databaseUrl: string;
let a: RunningServer;
let b: RunningServer;
let worker: ChildProcess;
let workerLog = '';
let hooks: http.Server;
const delivered: { type: string; data: Record<string, unknown> }[] = [];
let key: string;
const dataDirs: string[] = [];

function instanceEnv(): Record<string, string> {
  return {
    ...storageEnv,
    S3_PART_SIZE_MB: '32',
    REDIS_URL,
    PUBLIC_URL: 'http://127.0.0.1',
    RUN_WORKER: '0',
    WEBHOOKS_ALLOW_INSECURE: '1',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    LOG_LEVEL: 'silent',
  };
}

async function startInstance(): Promise<RunningServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-instance-'));
  dataDirs.push(dataDir);
  const config = loadConfig({ ...instanceEnv(), PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
  return startServer(config, { databaseUrl, log: createLogger('silent') });
}

/** A URL the server built from PUBLIC_URL, aimed at one instance. */
const at = (instance: RunningServer, url: string) => url.replace('http://127.0.0.1', instance.url);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; worker said: ${workerLog.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  s3 = await s3ForTest();
  storageEnv = s3.env;
  databaseUrl = await createTestDatabase();
  [a, b] = await Promise.all([startInstance(), startInstance()]);

  hooks = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      delivered.push(JSON.parse(body) as { type: string; data: Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));

  const workerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-worker-'));
  dataDirs.push(workerDir);
  worker = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
    env: { ...process.env, ...instanceEnv(), DATABASE_URL: databaseUrl, DATA_DIR: workerDir, RUN_WORKER: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (d) => (workerLog += d));
  worker.stderr?.on('data', (d) => (workerLog += d));

  const now = new Date();
  const { workspace } = await createWorkspaceWithOwner(a.services.db, now, { email: `ops-${randomBytes(3).toString('hex')}@example.test`, password: 'correct horse battery', workspaceName: 'Ops', plan: 'paid' });
  key = (await createApiKey(a.services.db, now, workspace.id, 'paid', 'scale-out', ['transfers:read', 'transfers:write', 'webhooks:read', 'webhooks:write'], operatorActor(null))).secret;
}, 60_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  await Promise.all([a?.close(), b?.close()]);
  await new Promise((resolve) => (worker?.exitCode !== null ? resolve(null) : worker.once('exit', resolve)));
  hooks?.close();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await s3?.stop();
  for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
}, 60_000);

const api = (instance: RunningServer, pathname: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${instance.url}/api/v1${pathname}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });

function patch(instance: RunningServer, fileId: string, token: string, offset: number, body: Buffer) {
  return fetch(`${instance.url}/files/${fileId}`, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': token, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(body),
  });
}

async function fetchRange(url: string, start: number, end: number): Promise<Buffer> {
  const res = await fetch(url, { headers: { range: `bytes=${start}-${end}` } });
  expect(res.status).toBe(206);
  return Buffer.from(await res.arrayBuffer());
}

const crcHex = (bytes: Buffer) => (crc32(bytes) >>> 0).toString(16).padStart(8, '0');

describe('two instances and a worker on one PostgreSQL, one bucket and Redis', () => {
  // Larger than one 32 MB part, so the upload is a real multipart upload with an incomplete part between PATCHes.
  const big = randomBytes(40 * MB + 12_345);
  const small = randomBytes(3 * MB + 7);
  let transferId: string;
  let slug: string;
  let targets: { id: string; uploadToken: string }[];

  it('uploads one file with PATCHes alternating between the instances, and resumes an interrupted one on the other', async () => {
    const hook = await api(a, '/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`, events: ['transfer.ready', 'transfer.expired'] } });
    expect(hook.status).toBe(201);

    const created = await api(a, '/transfers', { method: 'POST', json: { title: 'Scale-out', files: [{ name: 'big.bin', size: big.length }, { name: 'small.bin', path: 'folder', size: small.length }] } });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; slug: string; files: { id: string; uploadToken: string }[] };
    transferId = body.id;
    slug = body.slug;
    targets = body.files;
    const [bigFile, smallFile] = targets as [{ id: string; uploadToken: string }, { id: string; uploadToken: string }];

    const create = await fetch(`${b.url}/files/`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': bigFile.uploadToken, 'Upload-Length': String(big.length) } });
    expect(create.status).toBe(201);
    const chunk = 6 * MB;
    for (let offset = 0, i = 0; offset < big.length; offset += chunk, i++) {
      const instance = i % 2 === 0 ? a : b;
      const res = await patch(instance, bigFile.id, bigFile.uploadToken, offset, big.subarray(offset, offset + chunk));
      expect(res.status, `PATCH at ${offset} on instance ${i % 2 === 0 ? 'A' : 'B'}`).toBe(204);
      expect(Number(res.headers.get('upload-offset'))).toBe(Math.min(offset + chunk, big.length));
    }

    // The second file: a PATCH on A cut off mid-body, then the rest through B from the offset B reports.
    await fetch(`${a.url}/files/`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': smallFile.uploadToken, 'Upload-Length': String(small.length) } });
    await new Promise<void>((resolve) => {
      const req = http.request(`${a.url}/files/${smallFile.id}`, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': smallFile.uploadToken, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(small.length) },
      });
      req.on('error', () => resolve());
      req.write(small.subarray(0, MB + 100), () => setTimeout(() => (req.destroy(), resolve()), 300));
    });
    await tusUpload(small, { uploadUrl: `${b.url}/files/${smallFile.id}`, token: smallFile.uploadToken, chunkSize: 2 * MB });

    const rows = await a.services.db.select().from(files).where(eq(files.ownerId, transferId)).orderBy(files.seq);
    expect(rows.map((r) => [r.state, r.crc32])).toEqual([
      ['complete', crcHex(big)],
      ['complete', crcHex(small)],
    ]);
    // Nothing was written to either instance's disk: the bytes are in the bucket.
    for (const dir of dataDirs.slice(0, 2)) expect(await fs.readdir(path.join(dir, 'files')).catch(() => [])).toEqual([]);
  }, 120_000);

  it('sends on one instance; the worker alone delivers transfer.ready', async () => {
    expect((await api(b, `/transfers/${transferId}/finalize`, { method: 'POST', json: {} })).status).toBe(200);
    const ready = await until('transfer.ready delivered', async () => delivered.find((e) => e.type === 'transfer.ready'));
    expect((ready.data.transfer as { id: string }).id).toBe(transferId);
  }, 60_000);

  it('serves the files and the zip from the other instance with Range, bytes and CRC-32 intact', async () => {
    const session = await fetch(`${a.url}/api/public/transfers/${slug}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(session.status).toBe(201);
    const links = (await session.json()) as { files: { id: string; url: string }[]; zip: { url: string } };
    const bigUrl = at(b, links.files[0]!.url);
    const half = Math.floor(big.length / 2);
    const got = Buffer.concat([await fetchRange(bigUrl, 0, half - 1), await fetchRange(bigUrl, half, big.length - 1)]);
    expect(got.equals(big)).toBe(true);
    expect(crcHex(got)).toBe(crcHex(big));

    const owner = (await (await api(a, `/transfers/${transferId}/download-links`)).json()) as { zip: { sizeBytes: number }; files: { crc32: string }[] };
    expect(owner.files.map((f) => f.crc32)).toEqual([crcHex(big), crcHex(small)]);
    const zipUrl = at(b, links.zip.url);
    const size = owner.zip.sizeBytes;
    const cut = 20 * MB + 3;
    const zip = Buffer.concat([await fetchRange(zipUrl, 0, cut - 1), await fetchRange(zipUrl, cut, size - 1)]);
    expect(zip.length).toBe(size);
    const whole = Buffer.from(await (await fetch(at(a, links.zip.url))).arrayBuffer());
    expect(zip.equals(whole)).toBe(true);
    // Stored entries: each file's bytes sit in the zip as they are, under their paths.
    expect(zip.indexOf(big)).toBeGreaterThan(0);
    expect(zip.indexOf(small)).toBeGreaterThan(zip.indexOf(big));
    expect(zip.includes(Buffer.from('folder/small.bin'))).toBe(true);
  }, 120_000);

  it('the worker alone runs the expiry sweep: files deleted from the bucket, unfinished multipart uploads aborted, transfer.expired delivered', async () => {
    // An unsent draft with a half-finished upload, old enough for the sweep to delete it.
    const draft = (await (await api(a, '/transfers', { method: 'POST', json: { files: [{ name: 'left.bin', size: 40 * MB }] } })).json()) as { id: string; files: { id: string; uploadToken: string }[] };
    const left = draft.files[0]!;
    await fetch(`${a.url}/files/`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': left.uploadToken, 'Upload-Length': String(40 * MB) } });
    expect((await patch(b, left.id, left.uploadToken, 0, randomBytes(33 * MB))).status).toBe(204);
    const stored = a.services.storage as S3Storage;
    expect((await stored.tusStore().getUpload(left.id)).offset).toBe(33 * MB);
    // The multipart upload @tus/s3-store keeps for it, as the bucket sees it (not through a store's cache).
    const bucket = new S3Client({
      endpoint: storageEnv.S3_ENDPOINT,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: storageEnv.S3_ACCESS_KEY_ID!, secretAccessKey: storageEnv.S3_SECRET_ACCESS_KEY! },
    });
    const info = await bucket.send(new HeadObjectCommand({ Bucket: storageEnv.S3_BUCKET, Key: `${left.id}.info` }));
    const uploadId = info.Metadata?.['upload-id'];
    expect(uploadId).toBeTruthy();
    expect((await bucket.send(new ListPartsCommand({ Bucket: storageEnv.S3_BUCKET, Key: left.id, UploadId: uploadId }))).Parts).toHaveLength(1);

    const past = new Date(Date.now() - 1000);
    await a.services.db.update(transfers).set({ expiresAt: past }).where(eq(transfers.id, transferId));
    await a.services.db.update(transfers).set({ createdAt: new Date(Date.now() - 2 * 86_400_000) }).where(eq(transfers.id, draft.id));

    // What the schedule would do within a minute, now: put the sweep on the queue. Only the worker takes it.
    const boss = new PgBoss({ connectionString: databaseUrl, schema: 'jobs', max: 1 });
    await boss.start();
    await boss.send('sweep-transfers', {});
    await boss.stop({ graceful: false });

    await until('the transfer expired', async () => {
      const [t] = await a.services.db.select({ status: transfers.status, purgedAt: transfers.purgedAt }).from(transfers).where(eq(transfers.id, transferId));
      return t?.status === 'expired' && t.purgedAt !== null;
    });
    for (const target of targets) expect(await stored.size(target.id)).toBeNull();
    await until('the stale draft deleted', async () => (await a.services.db.select().from(transfers).where(eq(transfers.id, draft.id))).length === 0);
    // The rows go first (an upload still arriving is refused), then the bytes.
    await until('the unfinished multipart upload aborted', () =>
      bucket.send(new ListPartsCommand({ Bucket: storageEnv.S3_BUCKET, Key: left.id, UploadId: uploadId })).then(
        () => false,
        (err: { name?: string }) => err.name === 'NoSuchUpload',
      ),
    );
    await until('the upload record deleted', () =>
      bucket.send(new HeadObjectCommand({ Bucket: storageEnv.S3_BUCKET, Key: `${left.id}.info` })).then(
        () => false,
        (err: { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode === 404,
      ),
    );
    bucket.destroy();
    const expired = await until('transfer.expired delivered', async () => delivered.find((e) => e.type === 'transfer.expired'));
    expect(expired.data).toMatchObject({ transfer: { id: transferId }, reason: 'expired' });
    expect((await fetch(`${b.url}/api/public/transfers/${slug}`)).status).toBe(410);
  }, 90_000);
});
