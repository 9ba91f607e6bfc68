import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { ConnectedApp } from '../../contract/oauth.js';
import { ApiError } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { oauthStore } from '../db/schema/index.js';
import { revokeGrant } from './adapter.js';
import { said } from '../core/sentences.js';

/** The owner a grant belongs to, as the provider keeps it (`accountId`): the workspace and the user. */
export const accountIdOf = (workspaceId: string, userId: string) => `${workspaceId}/${userId}`;

interface GrantPayload {
  clientId?: string;
  iat?: number;
  resources?: Record<string, string>;
}

/** The owner's connected apps, newest first: each grant with its client's name and what it may do. */
export async function connectedApps(db: Database, accountId: string): Promise<ConnectedApp[]> {
  const grants = await db
    .select({ id: oauthStore.id, payload: oauthStore.payload, clientId: oauthStore.clientId, lastUsedAt: oauthStore.lastUsedAt })
    .from(oauthStore)
    .where(and(eq(oauthStore.model, 'Grant'), eq(oauthStore.accountId, accountId)));
  const clientIds = [...new Set(grants.map((g) => g.clientId).filter((id): id is string => id !== null))];
  const clients = clientIds.length
    ? await db.select({ id: oauthStore.id, payload: oauthStore.payload }).from(oauthStore).where(and(eq(oauthStore.model, 'Client'), inArray(oauthStore.id, clientIds)))
    : [];
  const names = new Map(clients.map((c) => [c.id, typeof c.payload.client_name === 'string' ? c.payload.client_name : null]));
  return grants
    .map((g) => {
      const payload = g.payload as GrantPayload;
      const [resource, scope] = Object.entries(payload.resources ?? {})[0] ?? ['', ''];
      const clientId = g.clientId ?? payload.clientId ?? '';
      return {
        id: g.id,
        // A client known by its metadata document (an https URL) is named by it when it has no stored name.
        client: { id: clientId, name: names.get(clientId) ?? null },
        resource,
        scopes: scope.split(' ').filter(Boolean),
        createdAt: new Date((payload.iat ?? 0) * 1000).toISOString(),
        lastUsedAt: g.lastUsedAt?.toISOString() ?? null,
      };
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Revokes one of the owner's grants: its tokens stop working on the next request. */
export async function revokeConnectedApp(db: Database, accountId: string, grantId: string): Promise<void> {
  const [grant] = await db
    .select({ id: oauthStore.id })
    .from(oauthStore)
    .where(and(eq(oauthStore.model, 'Grant'), eq(oauthStore.id, grantId), eq(oauthStore.accountId, accountId)));
  if (!grant) throw new ApiError('not_found', said({ id: 'api.oauth.noSuchConnectedApp', defaultMessage: 'No such connected app' }));
  await revokeGrant(db, grantId);
}

/** Records a grant's use, at most once a minute (a write per request would be waste: people read it to the minute). */
export async function noteGrantUse(db: Database, grantId: string, now: Date): Promise<void> {
  await db
    .update(oauthStore)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthStore.model, 'Grant'),
        eq(oauthStore.id, grantId),
        or(isNull(oauthStore.lastUsedAt), lt(oauthStore.lastUsedAt, sql`${new Date(now.getTime() - 60_000)}`)),
      ),
    );
}
