import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

/** Mails each address a one-time sign-in link; answers the addresses invited, lower-cased and deduplicated. */
export async function inviteGuests(collectionId: string, emails: string[]): Promise<string[]> {
  return (await v1Fetch<{ invited: string[] }>(`/collections/${encodeURIComponent(collectionId)}/guests`, { method: 'POST', json: { emails } })).invited;
}

export function useInviteGuests(collectionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emails: string[]) => inviteGuests(collectionId, emails),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.guests(collectionId) }),
  });
}
