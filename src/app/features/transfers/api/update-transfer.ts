import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { keepingPreviews } from './get-transfer';
import { transferKeys } from './query-keys';

export interface UpdateTransferInput {
  expiresAt?: string;
  /** null removes the limit. */
  maxDownloads?: number | null;
  notifications?: Partial<Transfer['notifications']>;
}

export function updateTransfer(id: string, input: UpdateTransferInput): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(id)}`, { method: 'PATCH', json: input });
}

export function useUpdateTransfer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateTransferInput) => updateTransfer(id, input),
    onSuccess: (transfer) => {
      queryClient.setQueryData<Transfer>(transferKeys.detail(id), (before) => keepingPreviews(transfer, before));
      return queryClient.invalidateQueries({ queryKey: transferKeys.lists });
    },
  });
}
