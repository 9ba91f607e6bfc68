import type { LinkUnavailableReason } from '../../contract/public.js';
import { linkUnavailable } from '../sharing/availability.js';
import type { transfers } from '../db/schema/index.js';

export type TransferRow = typeof transfers.$inferSelect;

/**
 * Why a transfer's link no longer opens, or null when it does. `countLimit` applies the download
 * limit (a visit that has already counted may go on downloading after the limit is reached).
 */
export function unavailableReason(t: TransferRow, now: Date, options: { countLimit: boolean }): LinkUnavailableReason | null {
  if (t.status === 'removed') return 'revoked';
  if (t.status === 'infected') return 'infected';
  if (t.status === 'expired' || t.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (t.purgedAt !== null) return 'revoked';
  if (options.countLimit && t.maxDownloads !== null && t.downloadCount >= t.maxDownloads) return 'limit_reached';
  return null;
}

/** Refuses (410 link_unavailable) unless the transfer can be downloaded now. */
export function assertAvailable(t: TransferRow, now: Date, options: { countLimit: boolean }): void {
  const reason = unavailableReason(t, now, options);
  if (reason) throw linkUnavailable(reason);
}
