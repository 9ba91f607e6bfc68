import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { Invite } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const invitesKey = [...userDataRoot, 'dashboard', 'admin', 'invites'] as const;

/** Invitations to sign up that are still open. */
export function invitesQueryOptions() {
  return queryOptions({ queryKey: invitesKey, queryFn: () => dashboardFetch<{ invites: Invite[] }>('/admin/invites').then((r) => r.invites) });
}

export function useInvites() {
  return useSuspenseQuery(invitesQueryOptions());
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => dashboardFetch<{ invite: Invite }>('/admin/invites', { method: 'POST', json: { email } }).then((r) => r.invite),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });
}

export function useRevokeInvite(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dashboardFetch<void>(`/admin/invites/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });
}
