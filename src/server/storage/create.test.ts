// @module-tag scale-out — the storage back-ends themselves
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { startTestS3, type TestS3 } from '../test/s3-server.js';
import { checkStorage, createStorage, StorageUnavailableError } from './create.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3('present');
});
afterAll(() => s3.stop());

const settings = (bucket: string, endpoint = s3.endpoint) =>
  loadConfig({ S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: s3.credentials.accessKeyId, S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey, S3_FORCE_PATH_STYLE: '1' });

it('uses the bucket when it answers', async () => {
  const config = settings('present');
  const storage = createStorage(config);
  expect(storage.kind).toBe('s3');
  await expect(checkStorage(storage, config)).resolves.toBeUndefined();
});

it('refuses a bucket that does not exist as a setting, naming S3_BUCKET and the bucket', async () => {
  const config = settings('absent');
  const err = await checkStorage(createStorage(config), config).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as Error).message).toBe(
    `Invalid configuration:\n  S3_BUCKET: there is no bucket "absent" at ${s3.endpoint}; create it, or name a bucket that exists`,
  );
});

it('stops `npm start` on a bucket that does not exist, before the database, with a message naming S3_BUCKET', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-no-bucket-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'absent',
    S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: '1',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(78);
    expect(output).toContain(`S3_BUCKET: there is no bucket "absent" at ${s3.endpoint}`);
    // Stopped before the embedded database was created.
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

it('refuses to start when nothing answers at the endpoint', async () => {
  const config = settings('present', 'http://127.0.0.1:9');
  const err = await checkStorage(createStorage(config), config).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StorageUnavailableError);
  expect((err as Error).message).toMatch(/^File storage unavailable: the bucket "present" \(S3_BUCKET\) at http:\/\/127\.0\.0\.1:9 \(S3_ENDPOINT\): /);
}, 30_000);
