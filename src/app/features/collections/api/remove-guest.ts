import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Guest } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

/** The guest's sign-ins stop working at once; their next request gets the "no longer shared with you" page. */
export async function removeGuest(collectionId: string, guestId: string): Promise<void> {
  await v1Fetch<unknown>(`/collections/${encodeURIComponent(collectionId)}/guests/${encodeURIComponent(guestId)}`, { method: 'DELETE' });
}

/**
 * `onRemoved` runs before the guest leaves the cached list: the list re-renders without them, and
 * whatever showed them (their row, its confirmation) is gone before a caller's own `mutate`
 * callbacks could run.
 */
export function useRemoveGuest(collectionId: string, { onRemoved }: { onRemoved?: (guestId: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (guestId: string) => removeGuest(collectionId, guestId),
    onSuccess: (_result, guestId) => {
      onRemoved?.(guestId);
      queryClient.setQueryData<Guest[]>(collectionKeys.guests(collectionId), (guests) => guests?.filter((guest) => guest.id !== guestId));
      return queryClient.invalidateQueries({ queryKey: collectionKeys.guests(collectionId) });
    },
  });
}
