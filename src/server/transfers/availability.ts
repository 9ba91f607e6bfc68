import type { LinkUnavailableReason } from '../../contract/public.js';
import { ApiError } from '../core/errors.js';
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

const REASON_TEXT: Record<LinkUnavailableReason, string> = {
  expired: 'This link has expired.',
  revoked: 'This link was revoked by its sender.',
  limit_reached: 'This link has reached its download limit.',
  infected: 'This transfer was blocked because a virus scan found malware in one of its files.',
  suspended: 'This link is not available right now.',
  deleted: 'The collection this link was for has been deleted.',
};

export const linkUnavailable = (reason: LinkUnavailableReason) => new ApiError('link_unavailable', REASON_TEXT[reason], { reason });

/** Refuses (410 link_unavailable) unless the transfer can be downloaded now. */
export function assertAvailable(t: TransferRow, now: Date, options: { countLimit: boolean }): void {
  const reason = unavailableReason(t, now, options);
  if (reason) throw linkUnavailable(reason);
}
