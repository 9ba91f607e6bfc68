import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactInput } from '../../../../contract/contacts';
import { contactKeys } from '../../../lib/contacts';
import { v1Fetch } from '../../../lib/v1-client';

/** Replaces every field (the API's PUT): a field left out is reset, so the form always sends them all. */
export async function replaceContact(id: string, input: ContactInput): Promise<Contact> {
  return (await v1Fetch<{ contact: Contact }>(`/contacts/${encodeURIComponent(id)}`, { method: 'PUT', json: input })).contact;
}

export function useReplaceContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ContactInput }) => replaceContact(id, input),
    onSuccess: (contact) => {
      queryClient.setQueryData<Contact[]>(contactKeys.list, (list) => list?.map((c) => (c.id === contact.id ? contact : c)));
      return queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}
