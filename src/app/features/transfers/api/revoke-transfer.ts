import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export function revokeTransfer(id: string): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(id)}/revoke`, { method: 'POST' });
}

/** The link stops working at once; the answer is the transfer with status `removed`. */
export function useRevokeTransfer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeTransfer(id),
    onSuccess: (transfer) => {
      queryClient.setQueryData(transferKeys.detail(id), transfer);
      return queryClient.invalidateQueries({ queryKey: transferKeys.lists });
    },
  });
}
