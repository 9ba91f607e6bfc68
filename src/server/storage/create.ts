import path from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { S3Storage } from './s3.js';
import { DiskStorage, type FileStorage } from './storage.js';

/** A storage the server cannot use for now (nothing answers at its endpoint, a disk it cannot write): it says so before it starts. */
export class StorageUnavailableError extends Error {}

/** The storage the settings name: an S3-compatible bucket with S3_BUCKET, otherwise DATA_DIR/files. */
export function createStorage(config: Config): FileStorage {
  if (!config.S3_BUCKET) return new DiskStorage(path.join(config.DATA_DIR, 'files'));
  return new S3Storage({
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    partSize: config.S3_PART_SIZE_MB * 1024 * 1024,
    uploadQueueSize: config.S3_UPLOAD_QUEUE_SIZE,
    uploadMemoryBytes: config.S3_UPLOAD_MEMORY_MB * 1024 * 1024,
  });
}

/**
 * Checks the storage answers. A bucket that does not exist, or that these keys may not use, is a
 * setting that names nothing usable: a ConfigError naming the variable, as a malformed setting
 * gets. Anything else (nothing answers at the endpoint, an unwritable DATA_DIR) throws
 * StorageUnavailableError naming the setting to look at.
 */
export async function checkStorage(storage: FileStorage, config: Config): Promise<void> {
  try {
    await storage.check();
  } catch (err) {
    if (storage.kind !== 's3') throw new StorageUnavailableError(`File storage unavailable: DATA_DIR ${config.DATA_DIR}: ${describe(err)}`);
    const where = config.S3_ENDPOINT ?? `AWS ${config.S3_REGION}`;
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404) {
      throw new ConfigError(`Invalid configuration:\n  S3_BUCKET: there is no bucket "${config.S3_BUCKET}" at ${where}; create it, or name a bucket that exists`);
    }
    if (status === 403) {
      throw new ConfigError(
        `Invalid configuration:\n  S3_BUCKET: access to the bucket "${config.S3_BUCKET}" at ${where} is denied with these keys; check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
      );
    }
    throw new StorageUnavailableError(
      `File storage unavailable: the bucket "${config.S3_BUCKET}" (S3_BUCKET) at ${config.S3_ENDPOINT ? `${where} (S3_ENDPOINT)` : where}: ${describe(err)}`,
    );
  }
}

/** A storage that cannot be used stops the start: created and checked before anything else opens. */
export async function openStorage(config: Config): Promise<FileStorage> {
  const storage = createStorage(config);
  await checkStorage(storage, config);
  return storage;
}

const describe = (err: unknown) => {
  const e = err as { name?: string; message?: string };
  return `${e.name ?? 'error'}: ${e.message ?? String(err)}`;
};
