import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '../../../../contract/contacts';
import { isApiRequestError } from '../../../lib/api-error';
import { contactKeys } from '../../../lib/contacts';
import { v1Fetch } from '../../../lib/v1-client';

export async function deleteContact(id: string): Promise<void> {
  await v1Fetch(`/contacts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Gone already (deleted in another tab) is what the owner wanted, so a 404 counts as done. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      try {
        await deleteContact(id);
      } catch (error) {
        if (!(isApiRequestError(error) && error.status === 404)) throw error;
      }
      return id;
    },
    onSuccess: (id) => {
      queryClient.setQueryData<Contact[]>(contactKeys.list, (list) => list?.filter((c) => c.id !== id));
      return queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}
