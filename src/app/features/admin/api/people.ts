import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { AdminPerson } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const adminPeopleKey = [...userDataRoot, 'dashboard', 'admin', 'people'] as const;

/** Every person on the server with their workspaces and roles, for its operator. */
export function adminPeopleQueryOptions() {
  return queryOptions({ queryKey: adminPeopleKey, queryFn: () => dashboardFetch<{ people: AdminPerson[] }>('/admin/people').then((r) => r.people) });
}

export function useAdminPeople() {
  return useSuspenseQuery(adminPeopleQueryOptions());
}

/** Disables a person everywhere, or enables them again. */
export function useSetPersonDisabled(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (disabled: boolean) => dashboardFetch<{ person: AdminPerson }>(`/admin/people/${encodeURIComponent(id)}`, { method: 'PATCH', json: { disabled } }).then((r) => r.person),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPeopleKey }),
  });
}
