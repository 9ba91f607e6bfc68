import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactInput } from '../../contract/contacts';
import { userDataRoot } from './query-keys';
import { v1Fetch } from './v1-client';

/**
 * The address book is read by the contacts page and by every address field (recipients, guests),
 * which suggest contacts as the owner types: one cached list for all of them, under these keys.
 */
export const contactKeys = {
  all: [...userDataRoot, 'v1', 'contacts'] as const,
  list: [...userDataRoot, 'v1', 'contacts', 'list'] as const,
};

/** "Ada Lovelace", or the part that is there; "" when neither name is known. */
export function contactName(contact: Pick<Contact, 'firstName' | 'lastName'>): string {
  return [contact.firstName, contact.lastName].filter(Boolean).join(' ');
}

/**
 * Lower-cased, with accents taken off, so "jose" finds "José" and "ZOE" finds "Zoë": what people
 * type when searching is rarely what the address book holds, byte for byte.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export async function getContacts(signal?: AbortSignal): Promise<Contact[]> {
  return (await v1Fetch<{ contacts: Contact[] }>('/contacts', { signal })).contacts;
}

/** Every contact of the workspace in the API's order (last name, first name, email); not paginated. */
export function contactsQueryOptions() {
  return queryOptions({ queryKey: contactKeys.list, queryFn: ({ signal }) => getContacts(signal), staleTime: 30_000 });
}

export async function createContact(input: ContactInput): Promise<Contact> {
  return (await v1Fetch<{ contact: Contact }>('/contacts', { method: 'POST', json: input })).contact;
}

export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
