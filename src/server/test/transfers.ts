import { Readable } from 'node:stream';
import { crc32 } from '@node-rs/crc32';
import { eq } from 'drizzle-orm';
import type { DownloadSession } from '../../contract/public.js';
import { newId, randomBase62, sha256 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files as storedFiles, transferFiles, transferRecipients, transfers } from '../db/schema/index.js';
import { hashedOnce, type TestServer, type TestRequestInit } from './harness.js';
import type { TransferRow } from '../transfers/availability.js';
import { filesOfTransfer, type TransferFile } from '../transfers/files.js';

/**
 * Test helpers for downloads: a sent transfer with real file bytes in storage, inserted straight
 * into the database, and small helpers to open a download page visit and fetch signed URLs.
 */

export interface SeedFile {
  name: string;
  data: Buffer;
  path?: string | null;
  mimeType?: string;
  /** Default 'complete' (bytes written, CRC recorded). */
  state?: 'complete' | 'uploading';
}

export interface SeedOptions {
  workspaceId?: string;
  title?: string | null;
  message?: string | null;
  files: SeedFile[];
  password?: string | null;
  maxDownloads?: number | null;
  e2ee?: boolean;
  /** Default true: the transfer was sent. */
  finalized?: boolean;
  status?: TransferRow['status'];
  /** Default 7 days from the clock's now. */
  expiresInMs?: number;
  recipients?: string[];
  /** The member who sent it (`usr_…`); none: an API key's. */
  createdBy?: string;
}

export interface SeededTransfer {
  transfer: TransferRow;
  files: TransferFile[];
  workspaceId: string;
  /** The `r` token of each recipient's personal link, by email. */
  recipientTokens: Map<string, string>;
}

const crcHex = (data: Buffer) => (crc32(data) >>> 0).toString(16).padStart(8, '0');

export async function seedTransfer(server: TestServer, options: SeedOptions): Promise<SeededTransfer> {
  const { db, storage } = server.services;
  const workspaceId = options.workspaceId ?? (await server.createWorkspace()).id;
  const now = server.clock.now();
  const id = newId('tr');
  const [transfer] = await db
    .insert(transfers)
    .values({
      id,
      workspaceId,
      slug: randomBase62(22),
      title: options.title ?? null,
      message: options.message ?? null,
      status: options.status ?? 'active',
      e2ee: options.e2ee ?? false,
      passwordHash: options.password ? await hashedOnce(options.password) : null,
      maxDownloads: options.maxDownloads ?? null,
      maxBytes: 10 * 1000 ** 3,
      origin: 'api',
      createdBy: options.createdBy ?? null,
      finalizedAt: options.finalized === false ? null : now,
      readyAt: options.finalized === false ? null : now,
      expiresAt: new Date(now.getTime() + (options.expiresInMs ?? 7 * 24 * 3600 * 1000)),
      createdAt: now,
    })
    .returning();

  const files: TransferFile[] = [];
  for (const [i, f] of options.files.entries()) {
    const fileId = newId('fil');
    const complete = (f.state ?? 'complete') === 'complete';
    await storage.write(fileId, Readable.from([complete ? f.data : f.data.subarray(0, Math.floor(f.data.length / 2))]));
    await insertTransferFiles(db, { id, workspaceId }, [
      {
        id: fileId,
        name: f.name,
        path: f.path ?? null,
        sizeBytes: f.data.length,
        mimeType: f.mimeType ?? 'application/octet-stream',
        state: complete ? 'complete' : 'uploading',
        storageKey: fileId,
        crc32: complete ? crcHex(f.data) : null,
        // Distinct creation times keep the file order (and so the zip) well defined.
        createdAt: new Date(now.getTime() - 60_000 + i),
        completedAt: complete ? new Date(now.getTime() - 30_000 + i * 1000) : null,
      },
    ]);
    files.push((await filesOfTransfer(db, id, eq(storedFiles.id, fileId)))[0]!);
  }

  const recipientTokens = new Map<string, string>();
  for (const email of options.recipients ?? []) {
    const token = randomBase62(32);
    recipientTokens.set(email, token);
    await db.insert(transferRecipients).values({
      id: newId('rcp'),
      workspaceId,
      transferId: id,
      email,
      linkTokenHash: sha256(token),
      notifiedAt: now,
      createdAt: now,
    });
  }
  return { transfer: transfer!, files, workspaceId, recipientTokens };
}

export async function reloadTransfer(server: TestServer, id: string): Promise<TransferRow> {
  const [row] = await server.services.db.select().from(transfers).where(eq(transfers.id, id));
  if (!row) throw new Error(`no transfer ${id}`);
  return row;
}

/** The path (and query) of an absolute URL the server minted, to fetch it from the test server. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** GET a signed URL and read the whole body. */
export async function download(server: TestServer, url: string, init: TestRequestInit = {}): Promise<{ res: Response; body: Buffer }> {
  const res = await server.fetch(pathOf(url), init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** Starts a page visit through the public API; fails the test on anything but 201. */
export async function startSession(
  server: TestServer,
  slug: string,
  options: { recipientToken?: string; unlockToken?: string } = {},
): Promise<DownloadSession> {
  const res = await server.fetch(`/api/public/transfers/${slug}/sessions`, {
    method: 'POST',
    json: options.recipientToken ? { recipientToken: options.recipientToken } : {},
    headers: options.unlockToken ? { 'x-transfer-unlock': options.unlockToken } : {},
  });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${await res.text()}`);
  return (await res.json()) as DownloadSession;
}

/** A transfer's files written straight to the database, complete or not, as the upload path would leave them. */
async function insertTransferFiles(
  db: Pick<Database, 'insert'>,
  transfer: { id: string; workspaceId: string },
  rows: (Omit<typeof storedFiles.$inferInsert, 'workspaceId' | 'ownerKind' | 'ownerId'> & { path?: string | null; sealedMeta?: string | null; sealedThumb?: string | null })[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(storedFiles).values(rows.map(({ path: _path, sealedMeta: _meta, sealedThumb: _thumb, ...f }) => ({ ...f, workspaceId: transfer.workspaceId, ownerKind: 'transfer' as const, ownerId: transfer.id })));
  await db.insert(transferFiles).values(rows.map((r) => ({ fileId: r.id, transferId: transfer.id, path: r.path ?? null, sealedMeta: r.sealedMeta ?? null, sealedThumb: r.sealedThumb ?? null })));
}
