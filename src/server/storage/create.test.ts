import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
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

it('refuses to start on a bucket that does not exist, naming it', async () => {
  const config = settings('absent');
  const err = await checkStorage(createStorage(config), config).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StorageUnavailableError);
  expect((err as Error).message).toBe(`File storage unavailable: S3 bucket absent at ${s3.endpoint}: no such bucket`);
});

it('refuses to start when nothing answers at the endpoint', async () => {
  const config = settings('present', 'http://127.0.0.1:9');
  const err = await checkStorage(createStorage(config), config).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StorageUnavailableError);
  expect((err as Error).message).toMatch(/^File storage unavailable: S3 bucket present at http:\/\/127\.0\.0\.1:9: /);
}, 30_000);
