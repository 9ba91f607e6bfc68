import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { userDataRoot } from '../../../lib/query-keys';
import { finalizeTransfer, updateTransfer, type TransferDetails } from './transfer-drafts';

/** Applies the details known only now to the draft, then sends it. */
export async function sendTransfer({ transferId, details }: { transferId: string; details: TransferDetails }): Promise<Transfer> {
  await updateTransfer(transferId, details);
  return finalizeTransfer(transferId);
}

export function useSendTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTransfer,
    // A new transfer changes the transfers list (owned by the transfers pages, keyed under `user`/`v1`/`transfers`).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...userDataRoot, 'v1', 'transfers'] }),
  });
}
