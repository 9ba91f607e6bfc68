import { senderOf } from './serialize.js';
import { and, count, eq, inArray, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { files, transferRecipients, transfers } from '../db/schema/index.js';
import { ownedBy } from '../files/stored.js';
import { emitEvent } from '../events/emit.js';
import type { Tx } from '../db/connection.js';
import { preparedQuery } from '../db/prepared.js';
import type { Services } from '../services.js';

export const transferUrl = (publicUrl: string, slug: string) => `${publicUrl}/t/${slug}`;

/** The transfer as every `transfer.*` event describes it (ready adds its files and recipients). */
export const transferEventFields = (t: Pick<typeof transfers.$inferSelect, 'id' | 'title' | 'slug' | 'expiresAt' | 'downloadCount'>, publicUrl: string) => ({
  id: t.id,
  title: t.title,
  url: transferUrl(publicUrl, t.slug),
  expiresAt: t.expiresAt.toISOString(),
  downloadCount: t.downloadCount,
});

/**
 * Emits `transfer.ready` once a sent transfer has no file still arriving (every one complete, or an import failed). Safe to call from any
 * place that may have completed the last piece (finalize, an upload finishing, an import landing):
 * the conditional update on `ready_at` lets exactly one caller emit it.
 */
export async function markReadyIfComplete(services: Pick<Services, 'db' | 'clock' | 'config'>, transferId: string): Promise<boolean> {
  const now = services.clock.now();
  const goesOut = and(
    eq(transfers.id, transferId),
    isNotNull(transfers.finalizedAt),
    isNull(transfers.readyAt),
    eq(transfers.status, 'active'),
    // Files still arriving hold it back; an import that failed does not (the transfer goes out with what arrived).
    notExists(services.db.select({ one: sql`1` }).from(files).where(and(ownedBy('transfer', transferId), inArray(files.state, ['uploading', 'importing'])))),
  );
  // Most calls find nothing to do (an upload to a draft finishing): one read, and no transaction.
  const [due] = await services.db.select({ id: transfers.id }).from(transfers).where(goesOut);
  if (!due) return false;
  return services.db.transaction(async (tx) => {
    const [t] = await tx.update(transfers).set({ readyAt: now }).where(goesOut).returning();
    if (!t) return false;
    const [fileCount] = await tx.select({ n: count() }).from(files).where(ownedBy('transfer', t.id));
    await emitReady(tx, services, t, { fileCount: fileCount?.n ?? 0, recipients: await recipientEmails(tx, t.id) });
    return true;
  });
}

// One query for one transfer or a page of them: the ids go as one array, so the statement's text stays the same.
const recipientsOfTransfers = preparedQuery('recipients_of_transfers', (db: Pick<Database, 'select'>, name) =>
  db
    .select({ transferId: transferRecipients.transferId, email: transferRecipients.email })
    .from(transferRecipients)
    .where(sql`${transferRecipients.transferId} = any(${sql.placeholder('transferIds')}::text[])`)
    .orderBy(transferRecipients.createdAt, transferRecipients.email)
    .prepare(name),
);

/** The recipients of each of these transfers, in the order they were added (as `transfer.ready` and the API list them). */
export async function recipientsOf(db: Pick<Database, 'select'>, transferIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (transferIds.length === 0) return map;
  for (const r of await recipientsOfTransfers(db).execute({ transferIds })) map.set(r.transferId, [...(map.get(r.transferId) ?? []), r.email]);
  return map;
}

/** The languages the sender chose for a transfer's recipients, by address (those with a choice only). */
export async function recipientLanguagesOf(db: Pick<Database, 'select'>, transferId: string): Promise<Record<string, string>> {
  const rows = await db
    .select({ email: transferRecipients.email, language: transferRecipients.language })
    .from(transferRecipients)
    .where(and(eq(transferRecipients.transferId, transferId), isNotNull(transferRecipients.language)))
    .orderBy(transferRecipients.email);
  return Object.fromEntries(rows.map((r) => [r.email, r.language!]));
}

/** A transfer's recipients, in the order `transfer.ready` lists them. */
export async function recipientEmails(db: Pick<Database, 'select'>, transferId: string): Promise<string[]> {
  return (await recipientsOf(db, [transferId])).get(transferId) ?? [];
}

/**
 * `transfer.ready`, in the transaction that set the transfer's `ready_at` (so it is emitted exactly
 * when that update commits), with what the caller already read of it.
 */
export async function emitReady(
  tx: Tx,
  services: Pick<Services, 'clock' | 'config'>,
  t: typeof transfers.$inferSelect,
  contents: { fileCount: number; recipients: string[] },
): Promise<void> {
  await emitEvent(tx, {
    workspaceId: t.workspaceId,
    type: 'transfer.ready',
    subject: { kind: 'transfer', id: t.id },
    now: t.readyAt ?? services.clock.now(),
    billing: services.config,
    data: { transfer: { ...transferEventFields(t, services.config.PUBLIC_URL), ...contents, sentBy: await senderOf(tx, t) } },
  });
}
