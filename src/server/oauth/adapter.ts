import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterConstructor, AdapterPayload, errors as oidcErrors } from 'oidc-provider';
import { sha256 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { oauthStore } from '../db/schema/index.js';

/** Models whose ids are not bearer secrets: the dashboard lists and revokes grants by id, and clients are public. */
const PLAIN_ID_MODELS = new Set(['Grant', 'Client']);

/** PostgreSQL text cannot hold U+0000: a value with one names nothing stored (and must not reach a query, which would fail). */
const storable = (value: string) => !value.includes('\u0000');

/** Whether a payload holds U+0000 in any string or key (jsonb cannot hold it either). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return !storable(value);
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => !storable(k) || holdsNul(v));
  return false;
}

/**
 * oidc-provider's storage in PostgreSQL (oauth_store), so any instance serves any step of a flow.
 * Opaque tokens are their own ids, so every id but a grant's or a client's is stored as its SHA-256,
 * and the value the provider copies into the payload (`jti`) is dropped: the table never holds a
 * usable token, code, interaction or session id.
 */
export function oauthAdapter(db: Database, errors: typeof oidcErrors): AdapterConstructor {
  return class OAuthStoreAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return PLAIN_ID_MODELS.has(this.model) ? id : sha256(id);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined) {
      // What the provider saves comes from requests (a client's metadata, an authorization's
      // parameters): a NUL there is the request's error, answered as OAuth says, not a failed write.
      if (!storable(id) || holdsNul(payload)) {
        const problem = 'a value contains a NUL character';
        throw this.model === 'Client' ? new errors.InvalidClientMetadata(problem) : new errors.InvalidRequest(problem);
      }
      const { jti: _value, ...withoutValue } = payload;
      const stored = PLAIN_ID_MODELS.has(this.model) ? payload : withoutValue;
      const row = {
        model: this.model,
        id: this.key(id),
        grantId: this.model === 'Grant' ? id : (payload.grantId ?? null),
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        accountId: payload.accountId ?? null,
        clientId: payload.clientId ?? (payload as { client_id?: string }).client_id ?? null,
        payload: stored as Record<string, unknown>,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oauthStore)
        .values(row)
        .onConflictDoUpdate({
          target: [oauthStore.model, oauthStore.id],
          set: { payload: row.payload, expiresAt: row.expiresAt, grantId: row.grantId, uid: row.uid, accountId: row.accountId, clientId: row.clientId },
        });
    }

    private async findWhere(where: ReturnType<typeof eq>, value?: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oauthStore.payload, consumedAt: oauthStore.consumedAt })
        .from(oauthStore)
        .where(and(eq(oauthStore.model, this.model), where, or(isNull(oauthStore.expiresAt), gt(oauthStore.expiresAt, sql`now()`))));
      if (!row) return undefined;
      const payload = { ...row.payload } as AdapterPayload;
      if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
      if (value !== undefined && !PLAIN_ID_MODELS.has(this.model)) payload.jti = value;
      return payload;
    }

    // Ids come from requests (a client_id, a uid in the path): one that cannot be stored is not found.
    async find(id: string) {
      return storable(id) ? this.findWhere(eq(oauthStore.id, this.key(id)), id) : undefined;
    }

    async findByUid(uid: string) {
      return storable(uid) ? this.findWhere(eq(oauthStore.uid, uid)) : undefined;
    }

    async findByUserCode(userCode: string) {
      return storable(userCode) ? this.findWhere(eq(oauthStore.userCode, userCode)) : undefined;
    }

    /**
     * Atomic across instances. oidc-provider checks `consumed` on a copy it read moments earlier, so two
     * refreshes racing with one refresh token would both pass there; here only one consumes it, and the
     * other is a replay: the whole grant goes.
     */
    async consume(id: string) {
      const consumed = await db
        .update(oauthStore)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oauthStore.model, this.model), eq(oauthStore.id, this.key(id)), isNull(oauthStore.consumedAt)))
        .returning({ grantId: oauthStore.grantId });
      if (consumed.length > 0) return;
      const [row] = await db
        .select({ grantId: oauthStore.grantId })
        .from(oauthStore)
        .where(and(eq(oauthStore.model, this.model), eq(oauthStore.id, this.key(id))));
      if (row?.grantId) await revokeGrant(db, row.grantId);
      throw new errors.InvalidGrant('grant request is invalid');
    }

    async destroy(id: string) {
      await db.delete(oauthStore).where(and(eq(oauthStore.model, this.model), eq(oauthStore.id, this.key(id))));
    }

    async revokeByGrantId(grantId: string) {
      await db.delete(oauthStore).where(and(eq(oauthStore.model, this.model), eq(oauthStore.grantId, grantId)));
    }
  };
}

/** Ends a grant: the grant, its codes and every token, in one statement; the next request with any of them is refused. */
export async function revokeGrant(db: Pick<Database, 'delete'>, grantId: string) {
  await db.delete(oauthStore).where(eq(oauthStore.grantId, grantId));
}
