import type { TransferSummary } from '../../../../contract/transfers';
import { formatInteger, formatRelativeTime } from '../../../lib/format';

type Shown = Pick<TransferSummary, 'title' | 'status' | 'finalizedAt' | 'expiresAt' | 'downloadCount' | 'maxDownloads'>;

/** The title, else the first file's name, else "Untitled". */
export function transferName(transfer: { title: string | null }, firstFileName: string | null | undefined): string {
  return transfer.title?.trim() || firstFileName || 'Untitled';
}

export function isDraft(transfer: Pick<Shown, 'finalizedAt'>): boolean {
  return transfer.finalizedAt === null;
}

const statusLabels: Record<string, string> = {
  active: 'Active',
  expired: 'Expired',
  removed: 'Revoked',
  infected: 'Infected',
};

/** `removed` reads "Revoked"; an unknown status is shown as it came. */
export function statusLabel(status: string): string {
  return statusLabels[status] ?? status;
}

/** Live and shareable: sent and neither expired nor revoked. */
export function isLive(transfer: Pick<Shown, 'status' | 'finalizedAt'>): boolean {
  return transfer.status === 'active' && transfer.finalizedAt !== null;
}

/** "expires in 5 days", "expired 2 days ago". */
export function describeExpiry(expiresAt: string, now: number = Date.now()): string {
  const relative = formatRelativeTime(expiresAt, now);
  return Date.parse(expiresAt) > now ? `expires ${relative}` : `expired ${relative}`;
}

/** "3 / 10" with a limit, "3" without. */
export function describeDownloads(transfer: Pick<Shown, 'downloadCount' | 'maxDownloads'>): string {
  const count = formatInteger(transfer.downloadCount);
  return transfer.maxDownloads === null ? count : `${count} / ${formatInteger(transfer.maxDownloads)}`;
}
