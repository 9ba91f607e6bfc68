import type { z } from 'zod';
import type { ImportRequestSchema } from '../../contract/transfers.js';
import { invalidField } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files, type FileOwnerKind } from '../db/schema/index.js';
import { nameFromUrl } from '../files/names.js';
import type { Services } from '../services.js';
import { issueUploadToken } from './tokens.js';
import { said } from '../core/sentences.js';

/** Where registered files' bytes go (the tus server mounted at /files/), as every owner's answer names it. */
export const tusEndpoint = (publicUrl: string) => `${publicUrl}/files/`;

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

export type ImportToRegister = z.output<typeof ImportRequestSchema>;

/** What a create or add-files call answers for each import: the file it became. */
export interface ImportEntry {
  fileId: string;
  name: string;
  size: number | null;
  source: string;
  status: 'importing';
}

/**
 * Refuses, naming `imports.<i>.url`, what the importer would refuse anyway before fetching: plain
 * http where the operator has not allowed it. (Addresses are checked when connecting, not here: a
 * name may resolve differently by then.)
 */
export function checkImportUrls(services: Pick<Services, 'config'>, imports: ImportToRegister[]) {
  imports.forEach((entry, i) => {
    if (new URL(entry.url).protocol === 'http:' && !services.config.IMPORTS_ALLOW_INSECURE) {
      throw invalidField('body', `imports.${i}.url`, said({ id: 'api.uploads.urlMustHttpsUrl', defaultMessage: 'url must be an https URL' }));
    }
  });
}

/**
 * Registers URL imports for any owner, inside the caller's transaction: one `files` row each, in
 * state `importing` (storage key = file id, like an upload), which the importer (imports/importer.ts)
 * picks up once the transaction commits. The owner adds its own part of each file with the ids
 * returned, in the same order, as for uploads.
 */
export async function registerImports(
  tx: Pick<Database, 'insert'>,
  owner: { kind: FileOwnerKind; id: string; workspaceId: string },
  imports: ImportToRegister[],
  now: Date,
): Promise<ImportEntry[]> {
  const rows = imports.map((entry) => {
    const id = newId('fi');
    return {
      id,
      workspaceId: owner.workspaceId,
      ownerKind: owner.kind,
      ownerId: owner.id,
      name: entry.name ?? nameFromUrl(entry.url),
      // Unknown until the origin answers, when no size was declared.
      sizeBytes: entry.size ?? 0,
      mimeType: entry.mimeType ?? 'application/octet-stream',
      source: 'import' as const,
      importUrl: entry.url,
      state: 'importing' as const,
      storageKey: id,
      createdAt: now,
    };
  });
  if (rows.length > 0) await tx.insert(files).values(rows);
  return rows.map((row, i) => ({ fileId: row.id, name: row.name, size: imports[i]!.size ?? null, source: row.importUrl, status: 'importing' }));
}
