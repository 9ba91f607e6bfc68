import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { useScanningEnabled } from '../../../lib/me';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

/** With each file's preview (`thumbnailUrl`, signed for an hour), which the owner's page shows. */
export function getTransfer(id: string, signal?: AbortSignal): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(id)}?thumbnails=true`, { signal });
}

/** A transfer a change answered with, keeping the previews of the one read before (a change's answer has none). */
export function keepingPreviews(fresh: Transfer, before: Transfer | undefined): Transfer {
  const previews = new Map(before?.files.map((f) => [f.id, f.thumbnailUrl]));
  return { ...fresh, files: fresh.files.map((f) => ({ ...f, thumbnailUrl: previews.get(f.id) ?? null })) };
}

export function transferQueryOptions(id: string) {
  return queryOptions({ queryKey: transferKeys.detail(id), queryFn: ({ signal }) => getTransfer(id, signal) });
}

/** How often the owner's page asks again while a file's virus scan is still to come. */
const SCAN_POLL_MS = 3000;

/** A live transfer with a complete file the scanner has not judged yet (end-to-end encrypted files are never scanned). */
export const awaitsScan = (t: Transfer) =>
  t.status === 'active' && !t.e2ee && t.files.some((f) => f.state === 'complete' && f.scanResult === null);

/** The owner's view of a transfer, read again every few seconds while a scan is due, so that its verdict shows (an infected draft file at once). */
export function useTransfer(id: string) {
  const scanning = useScanningEnabled();
  return useSuspenseQuery({ ...transferQueryOptions(id), refetchInterval: (query) => (scanning && query.state.data && awaitsScan(query.state.data) ? SCAN_POLL_MS : false) });
}
