import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactInput, SyncContactsResponse } from '../../../../contract/contacts';
import { contactKeys } from '../../../lib/contacts';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

/**
 * The rows the preview found valid, written in one transaction by the same operation as the API's
 * `POST /contacts/sync` (matched by email; created, replaced or left unchanged), but with room for a
 * whole address book rather than 1,000 per call.
 */
export function importContacts(contacts: ContactInput[]): Promise<SyncContactsResponse> {
  return dashboardFetch<SyncContactsResponse>('/contacts/import', { method: 'POST', json: { contacts } });
}

export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importContacts,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
