import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TransferDownloadsSchema } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export type TransferDownloads = z.infer<typeof TransferDownloadsSchema>;
export type Download = TransferDownloads['downloads'][number];
export type Recipient = TransferDownloads['recipients'][number];

export function getTransferDownloads(id: string, signal?: AbortSignal): Promise<TransferDownloads> {
  return v1Fetch<TransferDownloads>(`/transfers/${encodeURIComponent(id)}/downloads`, { signal });
}

/** Receipts and recipients' states: always refetched when the page opens, since they change as people download. */
export function transferDownloadsQueryOptions(id: string) {
  return queryOptions({
    queryKey: transferKeys.downloads(id),
    queryFn: ({ signal }) => getTransferDownloads(id, signal),
    staleTime: 0,
  });
}

export function useTransferDownloads(id: string) {
  return useSuspenseQuery(transferDownloadsQueryOptions(id));
}
