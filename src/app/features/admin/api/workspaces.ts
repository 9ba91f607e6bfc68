import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { AdminWorkspace } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const adminWorkspacesKey = [...userDataRoot, 'dashboard', 'admin', 'workspaces'] as const;

/** Every workspace on the server, for its operator. */
export function adminWorkspacesQueryOptions() {
  return queryOptions({
    queryKey: adminWorkspacesKey,
    queryFn: () => dashboardFetch<{ workspaces: AdminWorkspace[] }>('/admin/workspaces').then((r) => r.workspaces),
  });
}

export function useAdminWorkspaces() {
  return useSuspenseQuery(adminWorkspacesQueryOptions());
}

/** Changes a workspace's plan, or disables / enables it. */
export function useUpdateAdminWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { plan?: 'free' | 'paid'; disabled?: boolean }) =>
      dashboardFetch<{ workspace: AdminWorkspace }>(`/admin/workspaces/${encodeURIComponent(id)}`, { method: 'PATCH', json: input }).then((r) => r.workspace),
    onSuccess: (workspace) =>
      queryClient.setQueryData<AdminWorkspace[]>(adminWorkspacesKey, (list) => list?.map((w) => (w.id === workspace.id ? workspace : w))),
  });
}
