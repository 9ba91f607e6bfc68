import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { finalizeTransfer, transferKeys } from '../../transfers';
import { updateTransfer, type TransferDetails } from './transfer-drafts';

export interface SendRequest {
  transferId: string;
  details: TransferDetails;
  /** An encrypted transfer's `e2eeMeta`, made once its files are sealed (after the details are stored, so a refused detail shows first). */
  seal?: () => Promise<string>;
}

/** Applies the details known only now to the draft, then sends it. */
export async function sendTransfer({ transferId, details, seal }: SendRequest): Promise<Transfer> {
  await updateTransfer(transferId, details);
  return finalizeTransfer(transferId, seal ? await seal() : undefined);
}

/** Sending changes the transfers list and the draft's own page: the transfers feature's queries, all under `transferKeys.all`. */
export function useSendTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTransfer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  });
}

/**
 * Keeps what is typed on the draft as it is typed (never the password), so the transfers list shows
 * the draft with the same title and recipients as the form: the draft on the server is what both read.
 */
export function useSaveDraftDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transferId, details }: { transferId: string; details: TransferDetails }) => updateTransfer(transferId, details),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  });
}

/** Stores the details on the draft without sending it (Send pressed while files are still uploading). */
export function usePrepareTransfer() {
  return useMutation({ mutationFn: ({ transferId, details }: { transferId: string; details: TransferDetails }) => updateTransfer(transferId, details) });
}
