import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import type { MemberInvitation, MemberList, WorkspaceChoice } from '../../../../contract/members';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';
import { startSession } from '../../auth';

export const membersQueryKey = [...userDataRoot, 'members'] as const;

export function membersQueryOptions() {
  return queryOptions({ queryKey: membersQueryKey, queryFn: () => dashboardFetch<MemberList>('/members') });
}

/** After any change to the team: the list is read again. */
function useTeamMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryKey }) });
}

export const useInviteMember = () =>
  useTeamMutation((input: { email: string; role: 'admin' | 'member' }) => dashboardFetch<MemberInvitation>('/members/invitations', { method: 'POST', json: input }));

export const useResendInvitation = () => useTeamMutation((id: string) => dashboardFetch<MemberInvitation>(`/members/invitations/${encodeURIComponent(id)}/resend`, { method: 'POST' }));

export const useRevokeInvitation = () => useTeamMutation((id: string) => dashboardFetch<void>(`/members/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useChangeRole = () =>
  useTeamMutation((input: { userId: string; role: 'admin' | 'member' }) => dashboardFetch<void>(`/members/${encodeURIComponent(input.userId)}`, { method: 'PATCH', json: { role: input.role } }));

export const useRemoveMember = () => useTeamMutation((userId: string) => dashboardFetch<void>(`/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }));

/** Hands the workspace over; the session (now an admin's) replaces the cached one. */
export function useTransferOwnership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => dashboardFetch<Session>('/members/ownership', { method: 'POST', json: { userId } }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

export function useWorkspaceChoices() {
  return useQuery({ queryKey: [...userDataRoot, 'workspaces'], queryFn: async () => (await dashboardFetch<{ workspaces: WorkspaceChoice[] }>('/workspaces')).workspaces, staleTime: 60_000 });
}

/** Moves the session to another of the person's workspaces: nothing cached for the old one may show. */
export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workspaceId: string) => dashboardFetch<Session>('/workspaces/current', { method: 'POST', json: { workspaceId } }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

/** Which of the person's workspaces holds a transfer, collection, request or webhook; an error (404) when none does. */
export function useWorkspaceHolding(id: string | undefined) {
  return useQuery({
    queryKey: [...userDataRoot, 'workspace-holding', id],
    queryFn: () => dashboardFetch<{ workspace: WorkspaceChoice }>(`/workspaces/holding/${encodeURIComponent(id!)}`).then((r) => r.workspace),
    enabled: id !== undefined,
    retry: false,
  });
}
