import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Guest } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

/** What a guest may do, as the API takes it. */
export interface GuestAccess {
  role: 'viewer' | 'contributor';
  uploadFolderId: string | null;
}

/** Mails each address a one-time sign-in link; answers the addresses invited, lower-cased and deduplicated. */
export async function inviteGuests(collectionId: string, emails: string[], access: GuestAccess = { role: 'viewer', uploadFolderId: null }): Promise<string[]> {
  const json = access.role === 'viewer' ? { emails } : { emails, ...access };
  return (await v1Fetch<{ invited: string[] }>(`/collections/${encodeURIComponent(collectionId)}/guests`, { method: 'POST', json })).invited;
}

export function useInviteGuests(collectionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ emails, access }: { emails: string[]; access?: GuestAccess }) => inviteGuests(collectionId, emails, access),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.guests(collectionId) }),
  });
}

/** Changes what one guest may do; the list shows the answer. */
export function useUpdateGuest(collectionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ guestId, access }: { guestId: string; access: GuestAccess }) =>
      v1Fetch<{ guest: Guest }>(`/collections/${encodeURIComponent(collectionId)}/guests/${encodeURIComponent(guestId)}`, { method: 'PATCH', json: access }),
    onSuccess: ({ guest }) => queryClient.setQueryData<Guest[]>(collectionKeys.guests(collectionId), (guests) => guests?.map((g) => (g.id === guest.id ? guest : g))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.guests(collectionId) }),
  });
}
