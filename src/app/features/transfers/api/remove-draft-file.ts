import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeFileFromDraft } from '../../send/api/transfer-drafts';
import { transferKeys } from './query-keys';

/** Takes a file out of a draft (such as one the virus scan found infected): the draft's page and the lists are read again. */
export function useRemoveDraftFile(transferId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) => removeFileFromDraft(transferId, fileId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transferKeys.detail(transferId) }),
        queryClient.invalidateQueries({ queryKey: transferKeys.lists }),
      ]),
  });
}
