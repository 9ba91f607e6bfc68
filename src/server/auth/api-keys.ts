import { and, desc, eq, getTableColumns, isNull } from 'drizzle-orm';
import { paidOnlyScopes, type Scope } from '../../contract/scopes.js';
import type { Database } from '../db/connection.js';
import { apiKeys, users } from '../db/schema/index.js';
import { ApiError } from '../core/errors.js';
import type { Plan } from '../workspaces/plan.js';
import { keyHint, newApiKey, newId, sha256 } from '../core/secrets.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Creates a key (made by the member `createdBy`, when a person made it); its value is returned once and only its hash is kept. */
export async function createApiKey(db: Database, now: Date, workspaceId: string, plan: Plan, name: string, scopes: readonly Scope[], createdBy: string | null = null) {
  const forbidden = plan === 'free' ? scopes.filter((s) => paidOnlyScopes.includes(s)) : [];
  if (forbidden.length > 0) {
    throw new ApiError('upgrade_required', `A free workspace cannot create a key with ${forbidden.join(', ')}`, { scopes: forbidden, plan });
  }
  const secret = newApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      workspaceId,
      name: name.trim(),
      scopes: [...new Set(scopes)],
      secretHash: sha256(secret),
      hint: keyHint(secret),
      createdAt: now,
      createdBy,
    })
    .returning();
  return { row: row!, secret };
}

/** The workspace's live keys, newest first, each with the member who made it. */
export async function listApiKeys(db: Database, workspaceId: string) {
  return db
    .select({ ...getTableColumns(apiKeys), creatorName: users.name, creatorEmail: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revocation is a timestamp checked on every request, so it takes effect on the next one. */
export async function revokeApiKey(db: Database, now: Date, workspaceId: string, keyId: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}

export function apiKeyBody(row: ApiKeyRow & { creatorName: string | null; creatorEmail: string | null }) {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    scopes: row.scopes as Scope[],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdBy: row.creatorEmail === null ? null : { name: row.creatorName, email: row.creatorEmail },
  };
}
