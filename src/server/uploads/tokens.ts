import { and, eq, gt, sql } from 'drizzle-orm';
import { preparedQuery } from '../db/prepared.js';
import { randomBase62, sha256 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files, uploadTokens, workspaces } from '../db/schema/index.js';
import { isActiveWorkspace } from '../workspaces/active.js';

/**
 * Upload tokens: one per registered file, sent as `x-service-upload-token` on every tus request
 * for that file. They live UPLOAD_TOKEN_TTL_SECONDS (two hours by default); a token still valid
 * can be exchanged for a fresh one, an expired one cannot. Only SHA-256 hashes are stored.
 */
export const UPLOAD_TOKEN_HEADER = 'x-service-upload-token';
export const UPLOAD_TOKEN_PATTERN = /^ut_[0-9A-Za-z]{43}$/;

export interface IssuedUploadToken {
  token: string;
  expiresAt: Date;
}

export async function issueUploadToken(
  db: Pick<Database, 'insert'>,
  params: { fileId: string; workspaceId: string; now: Date; ttlSeconds: number },
): Promise<IssuedUploadToken> {
  const token = `ut_${randomBase62(43)}`;
  const expiresAt = new Date(params.now.getTime() + params.ttlSeconds * 1000);
  await db.insert(uploadTokens).values({
    tokenHash: sha256(token),
    fileId: params.fileId,
    workspaceId: params.workspaceId,
    createdAt: params.now,
    expiresAt,
  });
  return { token, expiresAt };
}

// Every tus request of every upload starts here: the token, its workspace and its file in one query.
const uploadTokenByHash = preparedQuery('upload_token_by_hash', (db, name) =>
  db
    .select({
      fileId: uploadTokens.fileId,
      workspaceId: uploadTokens.workspaceId,
      expiresAt: uploadTokens.expiresAt,
      ws: { disabledAt: workspaces.disabledAt },
      file: {
        id: files.id,
        workspaceId: files.workspaceId,
        ownerKind: files.ownerKind,
        ownerId: files.ownerId,
        sizeBytes: files.sizeBytes,
        state: files.state,
        source: files.source,
        storageKey: files.storageKey,
      },
    })
    .from(uploadTokens)
    .innerJoin(workspaces, eq(workspaces.id, uploadTokens.workspaceId))
    .innerJoin(files, eq(files.id, uploadTokens.fileId))
    .where(and(eq(uploadTokens.tokenHash, sql.placeholder('hash')), gt(uploadTokens.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare(name),
);

/**
 * The file a token is good for right now (`fileId`, and what an upload needs of its row as `file`),
 * or null for a malformed, unknown or expired token. `workspaceActive` is false once the operator
 * disabled the workspace: the token is genuine but opens nothing (see workspaces/active.ts).
 */
export async function verifyUploadToken(db: Database, token: string | undefined | null, now: Date) {
  if (!token || !UPLOAD_TOKEN_PATTERN.test(token)) return null;
  const [row] = await uploadTokenByHash(db).execute({ hash: sha256(token), now });
  if (!row) return null;
  const { ws, ...grant } = row;
  return { ...grant, workspaceActive: isActiveWorkspace(ws) };
}
