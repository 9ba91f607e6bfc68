import { createReadStream } from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DataStore } from '@tus/server';
import { S3UploadStore } from './s3-upload-store.js';
import { assertKey, deleteUnreferenced, type FileStorage } from './storage.js';

export interface S3Settings {
  /** An S3-compatible endpoint (`https://…`); without it, AWS's own for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path rather than the host name, as most self-hosted S3 servers want. */
  forcePathStyle: boolean;
  /** Multipart part size of uploads (at least 5 MiB, S3's own minimum). */
  partSize: number;
  /** Part buffers one upload holds at once, the one being filled included (default 4). */
  uploadQueueSize?: number;
  /** All uploads' part buffers together, in bytes (default 512 MiB); see s3-upload-store.ts. */
  uploadMemoryBytes?: number;
}

function clientConfig(settings: S3Settings): S3ClientConfig {
  return {
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Plain signed bodies: many S3-compatible servers do not understand the SDK's newer
    // aws-chunked checksum trailers and would store them as bytes. Integrity is the CRC-32 the
    // upload path computes anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket: uploads through @tus/s3-store with its parts held in bounded
 * memory (s3-upload-store.ts; multipart, resumable across instances and restarts), reads as ranged
 * GetObject streams with backpressure, never whole objects in memory.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly readsUnfinishedUploads = false;
  private readonly client: S3Client;
  private store: S3UploadStore | null = null;

  constructor(private readonly settings: S3Settings) {
    // The SDK is pinned to a release that supports Node 20 (package.json); its warning that later
    // releases will not is for whoever upgrades it, not for an operator reading the server's output.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client(clientConfig(settings));
  }

  /** The bucket answers with these credentials: checked before the server listens. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  tusStore(): DataStore {
    this.store ??= new S3UploadStore({
      partSize: this.settings.partSize,
      queueSize: this.settings.uploadQueueSize ?? 4,
      memoryBytes: this.settings.uploadMemoryBytes ?? 512 * 1024 * 1024,
      s3ClientConfig: { bucket: this.settings.bucket, ...clientConfig(this.settings) },
    });
    return this.store;
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    assertKey(key);
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    this.client
      .send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
      // pipeline ends the body when the reader goes away, and passes on any error.
      .then((res) => pipeline(res.Body as Readable, out))
      .catch((err: unknown) => out.destroy(err as Error));
    return out;
  }

  async presignedUrl(key: string, options: { contentDisposition: string; contentType: string; expiresInSeconds: number }): Promise<string> {
    assertKey(key);
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentDisposition: options.contentDisposition,
      ResponseContentType: options.contentType,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async size(key: string): Promise<number | null> {
    assertKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async write(key: string, source: Readable): Promise<number> {
    assertKey(key);
    // PutObject needs the length up front: the file goes to a temporary file first, not to memory.
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-s3-put-'));
    const temp = path.join(dir, 'body');
    try {
      await pipeline(source, (await fsp.open(temp, 'w')).createWriteStream());
      const { size } = await fsp.stat(temp);
      await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: createReadStream(temp), ContentLength: size }));
      return size;
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    try {
      // An upload the store knows: its multipart upload aborted, then the object, its record and an incomplete last part.
      await this.tusStore().remove(key);
      return;
    } catch (err) {
      // Anything but "no such upload" is a real failure, for the caller to hear of.
      if ((err as { status_code?: number }).status_code !== 404) throw err;
    }
    // Not an upload (a file the server made, a preview), or one already completed, whose multipart
    // upload is gone so the store gives up before deleting: the object and whatever may sit beside it.
    await this.client.send(
      new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: [{ Key: key }, { Key: `${key}.info` }, { Key: `${key}.part` }], Quiet: true } }),
    );
  }

  async sweepUnreferenced(before: Date, referenced: (keys: string[]) => Promise<Set<string>>): Promise<number> {
    const stale = new Set<string>();
    const fresh = new Set<string>();
    let continuation: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: continuation }));
      for (const object of page.Contents ?? []) {
        // Only names the server makes (ids, with the tus store's suffixes): a bucket may hold other things too.
        const key = object.Key?.replace(/\.(info|part)$/, '');
        if (!key || !SERVER_KEY.test(key)) continue;
        (object.LastModified && object.LastModified < before ? stale : fresh).add(key);
      }
      continuation = page.NextContinuationToken;
    } while (continuation);
    for (const key of fresh) stale.delete(key);
    return deleteUnreferenced(this, stale, referenced);
  }
}

/** The keys the server stores under: a file's id (`fi_…`), and a preview's (`…_thumb`). */
const SERVER_KEY = /^[a-z]{1,10}_[A-Za-z0-9]{20}(_thumb)?$/;
