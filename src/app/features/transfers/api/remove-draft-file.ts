import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

/** Takes a file out of a draft: the New transfer page (a file taken off the list) and a draft's page (an infected file) both do. */
export function removeFileFromDraft(transferId: string, fileId: string): Promise<void> {
  return v1Fetch<void>(`/transfers/${encodeURIComponent(transferId)}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE' });
}

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
