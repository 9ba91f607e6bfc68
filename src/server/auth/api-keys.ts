import type { ActivityActor } from '../../contract/activity.js';
import { recordActivity } from '../activity/activity.js';
import { and, desc, eq, getTableColumns, isNull } from 'drizzle-orm';
import { paidOnlyScopes, type Scope } from '../../contract/scopes.js';
import type { Database } from '../db/connection.js';
import { apiKeys, users } from '../db/schema/index.js';
import { ApiError } from '../core/errors.js';
import type { Plan } from '../workspaces/plan.js';
import { keyHint, newApiKey, newId, sha256 } from '../core/secrets.js';
import { said } from '../core/sentences.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Creates a key (its maker recorded: a member, or the operator); its value is returned once and only its hash is kept. */
export async function createApiKey(db: Database, now: Date, workspaceId: string, plan: Plan, name: string, scopes: readonly Scope[], actor: ActivityActor) {
  const forbidden = plan === 'free' ? scopes.filter((s) => paidOnlyScopes.includes(s)) : [];
  if (forbidden.length > 0) {
    throw new ApiError('upgrade_required', said({ id: 'api.keys.paidScopes', defaultMessage: 'A free workspace cannot create a key with {scopes}', description: 'scopes: the scopes, comma-separated (e.g. webhooks:write)' }, { scopes: forbidden.join(', ') }), { scopes: forbidden, plan });
  }
  const secret = newApiKey();
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: newId('key'),
        workspaceId,
        name: name.trim(),
        scopes: [...new Set(scopes)],
        secretHash: sha256(secret),
        hint: keyHint(secret),
        createdAt: now,
        createdBy: actor.type === 'member' ? actor.id : null,
      })
      .returning();
    await recordActivity(tx, workspaceId, now, { kind: 'api_key.created', actor, subject: { type: 'api_key', id: row!.id, name: row!.name }, detail: { scopes: row!.scopes.join(' ') } });
    return row!;
  });
  return { row, secret };
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
export async function revokeApiKey(db: Database, now: Date, workspaceId: string, keyId: string, actor: ActivityActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name });
    if (!row) return false;
    await recordActivity(tx, workspaceId, now, { kind: 'api_key.revoked', actor, subject: { type: 'api_key', id: row.id, name: row.name } });
    return true;
  });
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
