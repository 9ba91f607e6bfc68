import { callerActor, recordActivity, transferSubject } from '../activity/activity.js';
import { and, eq, isNotNull, isNull, lte, gt, ne, type SQL } from 'drizzle-orm';
import { transfers } from '../db/schema/index.js';
import { purgeOwnerBytes } from '../files/stored.js';
import { emitEvent, retractSupersededEvents } from '../events/emit.js';
import type { Caller } from '../core/caller.js';
import type { Services } from '../services.js';
import { creatorOfCaller } from '../workspaces/creators.js';
import { deleteDraft } from './drafts.js';
import { transferEventFields } from './lifecycle.js';

const endedStatus = { expired: 'expired', revoked: 'removed', infected: 'infected' } as const;

/**
 * Ends a transfer: status `expired` (its time passed), `removed` (revoked by its owner) or
 * `infected` (the virus scan found malware in a file), its files deleted from storage. An expired or
 * revoked one also has its earlier ready/expiring/downloaded events deleted (from pull feeds too)
 * and one `transfer.expired` event emitted with the reason; an infected one emits nothing (the
 * event's reasons are `expired` and `revoked`: its status tells). A revocation names who revoked it,
 * in the event (`revokedBy`) and the activity log. Returns false when it had already ended.
 */
export async function endTransfer(
  services: Pick<Services, 'db' | 'clock' | 'storage' | 'log' | 'config'>,
  transferId: string,
  reason: 'expired' | 'revoked' | 'infected',
  revokedBy?: Pick<Caller, 'member' | 'via' | 'credentialId' | 'credentialName'>,
): Promise<boolean> {
  const now = services.clock.now();
  const ended = await services.db.transaction(async (tx) => {
    const [t] = await tx
      .update(transfers)
      .set({ status: endedStatus[reason] })
      .where(and(eq(transfers.id, transferId), eq(transfers.status, 'active')))
      .returning();
    if (!t || reason === 'infected') return t ?? null;
    const subject = { kind: 'transfer', id: t.id } as const;
    await retractSupersededEvents(tx, subject);
    await emitEvent(tx, { workspaceId: t.workspaceId, type: 'transfer.expired', subject, now, billing: services.config, data: { transfer: { id: t.id }, reason, revokedBy: revokedBy ? creatorOfCaller(revokedBy) : null } });
    if (revokedBy) await recordActivity(tx, t.workspaceId, now, { kind: 'transfer.revoked', actor: callerActor(revokedBy), subject: transferSubject(t) });
    return t;
  });
  if (!ended) {
    // Ended before, by a process that died before it deleted the bytes: this call finishes the job.
    const [t] = await services.db.select({ status: transfers.status, purgedAt: transfers.purgedAt }).from(transfers).where(eq(transfers.id, transferId));
    if (t && t.status !== 'active' && t.purgedAt === null) await purgeFiles(services, transferId);
    return false;
  }
  await purgeFiles(services, transferId);
  return true;
}

/** Transfers that ended without their bytes deleted (the process died in between): deleted now. */
export async function purgeEnded(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log'>): Promise<number> {
  const due = await services.db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(ne(transfers.status, 'active'), isNull(transfers.purgedAt)));
  for (const { id } of due) await purgeFiles(services, id);
  return due.length;
}

/** Deletes a transfer's bytes from storage; the rows stay for the owner's history. */
async function purgeFiles(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log'>, transferId: string) {
  await purgeOwnerBytes(services, 'transfer', transferId);
  await services.db.update(transfers).set({ purgedAt: services.clock.now() }).where(eq(transfers.id, transferId));
}

const DAY = 86_400_000;

/** Drafts never sent are deleted, files and all, 24 hours after they were created. */
export async function deleteStaleDrafts(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log'>): Promise<number> {
  const cutoff = new Date(services.clock.now().getTime() - DAY);
  const stale = await services.db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(isNull(transfers.finalizedAt), lte(transfers.createdAt, cutoff)));
  for (const { id } of stale) await deleteDraft(services, id);
  return stale.length;
}

/** Sent, still active, expiring within 24 hours, and not yet told so (by the `notified` column). */
export function expiresWithinADay(notified: typeof transfers.expiringNotifiedAt | typeof transfers.expiryReminderAt, now: Date): SQL {
  return and(
    eq(transfers.status, 'active'),
    // Sent: it went out (a transfer still waiting for its imports has not).
    isNotNull(transfers.readyAt),
    isNull(notified),
    lte(transfers.expiresAt, new Date(now.getTime() + DAY)),
    gt(transfers.expiresAt, now),
  )!;
}

/** `transfer.expiring`, once, for each sent transfer that expires within 24 hours. */
export async function announceExpiring(services: Pick<Services, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const due = await tx.update(transfers).set({ expiringNotifiedAt: now }).where(expiresWithinADay(transfers.expiringNotifiedAt, now)).returning();
    for (const t of due) {
      await emitEvent(tx, {
        workspaceId: t.workspaceId,
        type: 'transfer.expiring',
        subject: { kind: 'transfer', id: t.id },
        now, billing: services.config,
        data: {
          transfer: transferEventFields(t, services.config.PUBLIC_URL),
        },
      });
    }
    return due.length;
  });
}

/** Sent transfers whose expiry has passed end with reason `expired`. */
export async function expireDue(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log' | 'config'>): Promise<number> {
  const now = services.clock.now();
  const due = await services.db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.status, 'active'), isNotNull(transfers.finalizedAt), lte(transfers.expiresAt, now)));
  let n = 0;
  for (const { id } of due) if (await endTransfer(services, id, 'expired')) n++;
  return n;
}

/** One pass of every time-driven transfer transition, in the order that keeps events sensible. */
export async function sweepTransfers(services: Services) {
  const expiring = await announceExpiring(services);
  const expired = await expireDue(services);
  const drafts = await deleteStaleDrafts(services);
  const purged = await purgeEnded(services);
  return { expiring, expired, drafts, purged };
}
