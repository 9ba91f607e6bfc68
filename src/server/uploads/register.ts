import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files, type FileOwnerKind } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { issueUploadToken } from './tokens.js';

/** What `POST …/files` answers for each registered file: its id and the token that lets its bytes in. */
export interface UploadTarget {
  id: string;
  name: string;
  size: number;
  uploadToken: string;
  uploadTokenExpiresAt: string;
}

export interface FileToUpload {
  name: string;
  size: number;
  mimeType?: string | null;
}

/**
 * Registers files for upload for any owner, inside the caller's transaction: one `files` row each
 * (state `uploading`, storage key = file id = tus upload id) and its upload token. The owner adds
 * its own part of each file (a transfer's folder path) with the ids returned, in the same order.
 */
export async function registerUploads(
  tx: Pick<Database, 'insert'>,
  services: Pick<Services, 'config'>,
  owner: { kind: FileOwnerKind; id: string; workspaceId: string },
  toUpload: FileToUpload[],
  now: Date,
): Promise<UploadTarget[]> {
  const rows = toUpload.map((f) => {
    const id = newId('fi');
    return { id, workspaceId: owner.workspaceId, ownerKind: owner.kind, ownerId: owner.id, name: f.name, sizeBytes: f.size, mimeType: f.mimeType ?? 'application/octet-stream', state: 'uploading' as const, storageKey: id, createdAt: now };
  });
  if (rows.length > 0) await tx.insert(files).values(rows);
  const targets: UploadTarget[] = [];
  for (const row of rows) {
    const token = await issueUploadToken(tx, { fileId: row.id, workspaceId: owner.workspaceId, now, ttlSeconds: services.config.UPLOAD_TOKEN_TTL_SECONDS });
    targets.push({ id: row.id, name: row.name, size: row.sizeBytes, uploadToken: token.token, uploadTokenExpiresAt: token.expiresAt.toISOString() });
  }
  return targets;
}
