import path from 'node:path';
import type { Config } from '../config.js';
import { S3Storage } from './s3.js';
import { DiskStorage, type FileStorage } from './storage.js';

/** A storage the server cannot use: it says so before it listens rather than on the first upload. */
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
  });
}

/** Checks the storage answers (the bucket exists and these keys may use it); throws StorageUnavailableError. */
export async function checkStorage(storage: FileStorage, config: Config): Promise<void> {
  try {
    await storage.check();
  } catch (err) {
    const where = storage.kind === 's3' ? `S3 bucket ${config.S3_BUCKET} at ${config.S3_ENDPOINT ?? `AWS ${config.S3_REGION}`}` : `DATA_DIR ${config.DATA_DIR}`;
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const reason = status === 404 ? 'no such bucket' : status === 403 ? 'access denied with these keys' : `${e.name ?? 'error'}: ${e.message ?? String(err)}`;
    throw new StorageUnavailableError(`File storage unavailable: ${where}: ${reason}`);
  }
}
