import type { Me } from '../../../../contract/me';
import type { TransferSummary } from '../../../../contract/transfers';
import { defineMessages, type IntlShape } from 'react-intl';
import { formatRelativeTime } from '../../../lib/format';
import { currentIntl } from '../../../lib/intl';

type Shown = Pick<TransferSummary, 'title' | 'status' | 'finalizedAt' | 'sendRequestedAt' | 'expiresAt' | 'downloadCount' | 'maxDownloads'>;

/**
 * The transfer's title, else its first file's name. An end-to-end encrypted transfer has neither on
 * the server (its title and names are sealed; files are registered as `encrypted`): it is named by the
 * sender's own label kept in this browser (lib/transfer-labels), else as such.
 */
export function transferName(
  transfer: { title: string | null; e2ee?: boolean },
  firstFileName: string | null | undefined,
  label?: string | null,
  intl: IntlShape = currentIntl(),
): string {
  if (transfer.e2ee) return label || intl.formatMessage({ id: 'transfers.name.encrypted', defaultMessage: 'End-to-end encrypted transfer' });
  return transfer.title?.trim() || firstFileName || intl.formatMessage({ id: 'transfers.name.untitled', defaultMessage: 'Untitled' });
}

/** Not finalized yet. A transfer finalized while its URL imports run is no draft, though not sent either (`arriving`). */
export function isDraft(transfer: Pick<Shown, 'sendRequestedAt'>): boolean {
  return transfer.sendRequestedAt === null;
}

/**
 * What the transfer's link does right now, the same truth a recipient meets (the server's
 * `unavailableReason`): a draft has no working link yet, nor has one finalized while its URL imports
 * run (`arriving`: it goes out when the last lands); a sent one is live until it is revoked, found
 * infected, expires, or reaches its download limit. An unknown `status` is `unknown`.
 */
export type LinkState = 'draft' | 'arriving' | 'live' | 'limit_reached' | 'expired' | 'revoked' | 'infected' | 'unknown';

export function linkState(transfer: Shown, now: number = Date.now()): LinkState {
  if (transfer.status === 'removed') return 'revoked';
  if (transfer.status === 'infected') return 'infected';
  if (transfer.status === 'expired' || Date.parse(transfer.expiresAt) <= now) return 'expired';
  if (transfer.status !== 'active') return 'unknown';
  if (transfer.finalizedAt === null) return transfer.sendRequestedAt === null ? 'draft' : 'arriving';
  if (transfer.maxDownloads !== null && transfer.downloadCount >= transfer.maxDownloads) return 'limit_reached';
  return 'live';
}

/** The badge's words for each state (formatted where shown). */
export const linkStateLabels = defineMessages<Exclude<LinkState, 'unknown'>>({
  draft: { id: 'transfers.linkState.draft', defaultMessage: 'Draft' },
  arriving: { id: 'transfers.linkState.arriving', defaultMessage: 'Files arriving' },
  live: { id: 'transfers.linkState.live', defaultMessage: 'Active' },
  limit_reached: { id: 'transfers.linkState.limitReached', defaultMessage: 'Limit reached' },
  expired: { id: 'transfers.linkState.expired', defaultMessage: 'Expired' },
  revoked: { id: 'transfers.linkState.revoked', defaultMessage: 'Revoked' },
  infected: { id: 'transfers.linkState.infected', defaultMessage: 'Infected' },
});

/** Sent and its link still opens (a reached limit can be raised, so the link is still worth showing). */
export function isLive(transfer: Shown, now: number = Date.now()): boolean {
  const state = linkState(transfer, now);
  return state === 'live' || state === 'limit_reached';
}

/** The files are gone: revoked, infected or expired transfers keep only their history. */
export function filesAreGone(transfer: Shown, now: number = Date.now()): boolean {
  const state = linkState(transfer, now);
  return state === 'revoked' || state === 'expired' || state === 'infected';
}

/** "expires in 5 days", "expired 2 days ago". */
export function describeExpiry(expiresAt: string, intl: IntlShape = currentIntl(), now: number = Date.now()): string {
  const when = formatRelativeTime(expiresAt, now);
  return Date.parse(expiresAt) > now
    ? intl.formatMessage({ id: 'transfers.expiry.expiresWhen', defaultMessage: 'expires {when}' }, { when })
    : intl.formatMessage({ id: 'transfers.expiry.expiredWhen', defaultMessage: 'expired {when}' }, { when });
}

/** "3 / 10" with a limit, "3" without. */
export function describeDownloads(transfer: Pick<Shown, 'downloadCount' | 'maxDownloads'>, intl: IntlShape = currentIntl()): string {
  if (transfer.maxDownloads === null) return intl.formatNumber(transfer.downloadCount);
  return intl.formatMessage(
    { id: 'transfers.downloads.ofLimit', defaultMessage: '{count, number} / {limit, number}' },
    { count: transfer.downloadCount, limit: transfer.maxDownloads },
  );
}

/**
 * The caller may download the transfer's files from the server: not an end-to-end encrypted one (only the link's key
 * opens it), nor, for a member, a teammate's (the server's rule, docs/teams.md; it refuses with 403 anyway).
 */
export function mayDownload(transfer: Pick<TransferSummary, 'e2ee' | 'sentBy'>, me: Pick<Me, 'role' | 'member'>): boolean {
  if (transfer.e2ee) return false;
  return me.role !== 'member' || (transfer.sentBy?.kind === 'member' && transfer.sentBy.id === me.member?.id);
}
