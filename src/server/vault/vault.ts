import { and, eq, sql } from 'drizzle-orm';
import type { Vault, VaultRecord } from '../../contract/vault.js';
import { ApiError, notFound } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { files, vaults } from '../db/schema/index.js';
import { ownedBy } from '../files/stored.js';
import type { Services } from '../services.js';
import type { Plan } from '../workspaces/plan.js';
import { said } from '../core/sentences.js';

/**
 * The vault of one user: its record (KDF parameters and wrapped master keys, opaque to us) and
 * the quota its items count against. Every operation takes the signed-in holder, never a request.
 */

export type VaultRow = typeof vaults.$inferSelect;

/** Whose vault: the signed-in user, in their workspace, on its plan (read live with the session). */
export interface VaultHolder {
  userId: string;
  workspaceId: string;
  plan: Plan;
}

/** Ciphertext bytes a vault may hold on this plan. */
export const vaultQuota = (plan: Plan, config: Pick<Services['config'], 'VAULT_FREE_BYTES' | 'VAULT_PAID_BYTES'>) =>
  plan === 'paid' ? config.VAULT_PAID_BYTES : config.VAULT_FREE_BYTES;

const ofHolder = (holder: VaultHolder) => and(eq(vaults.userId, holder.userId), eq(vaults.workspaceId, holder.workspaceId));

/** The holder's vault, or 404. */
export async function ownVault(db: Pick<Database, 'select'>, holder: VaultHolder): Promise<VaultRow> {
  const [row] = await db.select().from(vaults).where(ofHolder(holder));
  if (!row) throw notFound(said({ id: 'api.vault.vaultNotFound', defaultMessage: 'Vault not found' }));
  return row;
}

/**
 * The holder's vault, locked for the rest of the transaction: every change to its folders and
 * items takes this lock first, so two moves cannot build a cycle and two registrations cannot
 * both fit under the quota that only one of them fits under.
 */
export async function lockOwnVault(tx: Pick<Database, 'select'>, holder: VaultHolder): Promise<VaultRow> {
  const [row] = await tx.select().from(vaults).where(ofHolder(holder)).for('update');
  if (!row) throw notFound(said({ id: 'api.vault.vaultNotFound', defaultMessage: 'Vault not found' }));
  return row;
}

/** Registered ciphertext bytes of the vault's items, unfinished uploads included (they hold their room). */
export async function vaultUsedBytes(db: Pick<Database, 'select'>, vaultId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
    .from(files)
    .where(ownedBy('vault', vaultId));
  return Number(row?.used ?? 0);
}

export async function vaultUsage(services: Pick<Services, 'config'>, db: Pick<Database, 'select'>, holder: VaultHolder, vaultId: string) {
  return { usedBytes: await vaultUsedBytes(db, vaultId), limitBytes: vaultQuota(holder.plan, services.config) };
}

/** What the holder's vault uses of its quota; a holder without a vault uses nothing of it yet (settings shows the quota either way). */
export async function holderVaultUsage(services: Pick<Services, 'config' | 'db'>, holder: VaultHolder) {
  const [row] = await services.db.select({ id: vaults.id }).from(vaults).where(ofHolder(holder));
  return { exists: row !== undefined, ...(row ? await vaultUsage(services, services.db, holder, row.id) : { usedBytes: 0, limitBytes: vaultQuota(holder.plan, services.config) }) };
}

async function vaultBody(services: Pick<Services, 'config'>, db: Pick<Database, 'select'>, holder: VaultHolder, row: VaultRow): Promise<Vault> {
  return {
    record: row.record,
    usage: await vaultUsage(services, db, holder, row.id),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getVault(services: Pick<Services, 'db' | 'config'>, holder: VaultHolder): Promise<Vault> {
  return vaultBody(services, services.db, holder, await ownVault(services.db, holder));
}

/** Creates the holder's vault; one already there is `409 conflict` (`vault_exists`), never overwritten. */
export async function createVault(services: Pick<Services, 'db' | 'clock' | 'config'>, holder: VaultHolder, record: VaultRecord): Promise<Vault> {
  const now = services.clock.now();
  const [row] = await services.db
    .insert(vaults)
    .values({ id: newId('vlt'), workspaceId: holder.workspaceId, userId: holder.userId, record, createdAt: now, updatedAt: now, itemsChangedAt: now })
    .onConflictDoNothing({ target: vaults.userId })
    .returning();
  if (!row) throw new ApiError('conflict', said({ id: 'api.vault.youAlreadyVaultUnlock', defaultMessage: 'You already have a vault; unlock it, or change its passphrase instead' }), { reason: 'vault_exists' });
  return vaultBody(services, services.db, holder, row);
}

/** Replaces the record (a passphrase change or a recovery rewraps the master key; no file changes). */
export async function replaceVaultRecord(services: Pick<Services, 'db' | 'clock' | 'config'>, holder: VaultHolder, record: VaultRecord): Promise<Vault> {
  const now = services.clock.now();
  const [row] = await services.db.update(vaults).set({ record, updatedAt: now }).where(ofHolder(holder)).returning();
  if (!row) throw notFound(said({ id: 'api.vault.vaultNotFound', defaultMessage: 'Vault not found' }));
  return vaultBody(services, services.db, holder, row);
}
