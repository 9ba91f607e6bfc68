import { randomBytes } from 'node:crypto';
import { crc32 } from '@node-rs/crc32';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { newId, randomBase62 } from '../core/secrets.js';
import { loadConfig } from '../config.js';
import { files, transferFiles, transfers } from '../db/schema/index.js';
import { registerUploads } from '../uploads/register.js';
import { createLogger } from '../logger.js';
import { startServer, type RunningServer } from '../assembly/runtime.js';
import type { Services } from '../services.js';
import type { TestServer } from './harness.js';
import { crcHex } from '../uploads/crc.js';

/**
 * Helpers for the upload tests: a transfer and its files registered straight in the database (as
 * `POST /transfers` will), uploads through the real tus-js-client, and a second server process on
 * the same database and DATA_DIR for restart tests.
 */

type Db = Pick<Services, 'db' | 'clock' | 'config'>;

export async function createTransfer(services: Db, workspaceId: string, options: { finalized?: boolean } = {}): Promise<string> {
  const now = services.clock.now();
  const id = newId('tr');
  await services.db.insert(transfers).values({
    id,
    workspaceId,
    slug: randomBase62(22),
    status: 'active',
    maxBytes: 10 * 1000 ** 3,
    origin: 'api',
    finalizedAt: options.finalized ? now : null,
    expiresAt: new Date(now.getTime() + 7 * 24 * 3600 * 1000),
    createdAt: now,
  });
  return id;
}

export interface RegisteredFile {
  fileId: string;
  transferId: string;
  workspaceId: string;
  token: string;
  tokenExpiresAt: Date;
}

/** A file registered for upload on the transfer (through the engine, as `POST /transfers` does) and its upload token. */
export async function addFile(services: Db, transferId: string, workspaceId: string, size: number): Promise<RegisteredFile> {
  const now = services.clock.now();
  const [target] = await registerUploads(services.db, services, { kind: 'transfer', id: transferId, workspaceId }, [{ name: 'upload.bin', size }], now);
  await services.db.insert(transferFiles).values({ fileId: target!.id, transferId });
  return { fileId: target!.id, transferId, workspaceId, token: target!.uploadToken, tokenExpiresAt: new Date(target!.uploadTokenExpiresAt) };
}

/** A fresh workspace, an unsent transfer and one registered file of `size` bytes. */
export async function registerFile(server: TestServer, size: number): Promise<RegisteredFile> {
  const ws = await server.createWorkspace();
  const transferId = await createTransfer(server.services, ws.id);
  return addFile(server.services, transferId, ws.id, size);
}

export const crcOf = (bytes: Buffer) => crcHex(crc32(bytes));
export const randomFile = (size: number) => randomBytes(size);

export async function fileRow(services: Pick<Services, 'db'>, fileId: string) {
  const [row] = await services.db.select().from(files).where(eq(files.id, fileId));
  if (!row) throw new Error(`no file ${fileId}`);
  return row;
}

/**
 * How many bytes of an upload are stored so far, as the tus store counts them (null when no upload
 * was created): on S3 the bytes of an unfinished upload are parts, not an object to read.
 */
export async function storedLength(services: Pick<Services, 'storage'>, fileId: string): Promise<number | null> {
  try {
    return (await services.storage.tusStore().getUpload(fileId)).offset;
  } catch {
    return null;
  }
}

/** The stored bytes of a file (null when there is none), read through the server's storage; on S3 only once complete. */
export async function storedBytes(services: Pick<Services, 'storage'>, fileId: string): Promise<Buffer | null> {
  if ((await services.storage.size(fileId)) === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of services.storage.read(fileId)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface TusOptions {
  endpoint?: string;
  uploadUrl?: string;
  token: string;
  chunkSize?: number;
  /** Called after each PATCH; return true to abort the upload there. */
  stopAfterChunk?: (bytesAccepted: number) => boolean;
}

/** Runs tus-js-client until success, error or a requested stop. Resolves with the upload URL. */
export function tusUpload(bytes: Buffer, options: TusOptions): Promise<{ url: string; stopped: boolean }> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    const upload = new tus.Upload(bytes, {
      endpoint: options.endpoint ?? null,
      uploadUrl: options.uploadUrl ?? null,
      chunkSize: options.chunkSize ?? 1024 * 1024,
      headers: { 'x-service-upload-token': options.token },
      retryDelays: null,
      storeFingerprintForResuming: false,
      metadata: { filename: 'file.bin', filetype: 'application/octet-stream' },
      onChunkComplete: (_size, accepted) => {
        if (!stopped && options.stopAfterChunk?.(accepted)) {
          stopped = true;
          void upload.abort().then(() => resolve({ url: upload.url ?? '', stopped: true }), reject);
        }
      },
      onSuccess: () => resolve({ url: upload.url ?? '', stopped: false }),
      onError: reject,
    });
    upload.start();
  });
}

/**
 * A second server on the same database and DATA_DIR as `server` (which must be closed first, as a
 * restarted process would find it). Close it before `server.stop()` drops the database.
 */
export async function restartServer(server: TestServer, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({
    ...server.storageEnv,
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: server.dataDir,
    LOG_LEVEL: 'silent',
    RUN_WORKER: '0',
    PUBLIC_URL: server.services.config.PUBLIC_URL,
  });
  return startServer(config, { clock: server.clock, databaseUrl: server.databaseUrl, log: createLogger('silent') });
}
