import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { transferKeys } from './query-keys';

export function discardTransfer(id: string): Promise<{ deleted: true }> {
  return v1Fetch<{ deleted: true }>(`/transfers/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The draft is gone: its page's data is dropped and the lists are read again. */
export function useDiscardTransfer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => discardTransfer(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: transferKeys.detail(id) });
      queryClient.removeQueries({ queryKey: transferKeys.downloads(id) });
      return queryClient.invalidateQueries({ queryKey: transferKeys.lists });
    },
  });
}
