import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transfer } from '../../../../contract/transfers';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

/**
 * Sends a draft. `e2eeMeta`: an encrypted transfer's sealed manifest, title and message (see src/crypto sealTransferMeta).
 * Called by New transfer, by a send from the vault and by a draft's page (Send now).
 */
export function finalizeTransfer(transferId: string, e2eeMeta?: string): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(transferId)}/finalize`, { method: 'POST', json: e2eeMeta === undefined ? {} : { e2eeMeta } });
}

/** Sends a draft as it is, with the details stored on it. */
export function useFinalizeDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transferId: string) => finalizeTransfer(transferId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  });
}
