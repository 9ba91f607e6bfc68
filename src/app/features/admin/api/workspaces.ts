import type { IntlShape } from 'react-intl';
import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { AdminWorkspace } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { currentIntl } from '../../../lib/intl';
import { sessionQueryKey, userDataRoot } from '../../../lib/query-keys';

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

/**
 * Changes a workspace's plan, or disables / enables it. When the operator changes the plan of their
 * own workspace, everything the app knows about it was read under the old plan: the session (the
 * header's badge, which pages are paid), `/me` (limits), and the data of paid features (refused or
 * allowed before), so the session and every query of the signed-in user's data are refetched.
 */
export function useUpdateAdminWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { plan?: 'free' | 'paid'; disabled?: boolean }) =>
      dashboardFetch<{ workspace: AdminWorkspace }>(`/admin/workspaces/${encodeURIComponent(id)}`, { method: 'PATCH', json: input }).then((r) => r.workspace),
    onSuccess: async (workspace, input) => {
      queryClient.setQueryData<AdminWorkspace[]>(adminWorkspacesKey, (list) => list?.map((w) => (w.id === workspace.id ? workspace : w)));
      if (workspace.isOwn && input.plan !== undefined) {
        await Promise.all([queryClient.invalidateQueries({ queryKey: sessionQueryKey }), queryClient.invalidateQueries({ queryKey: userDataRoot })]);
      }
    },
  });
}

/** What a successful change did, in words, for the row's status message. */
export function describeWorkspaceChange(
  workspace: AdminWorkspace,
  input: { plan?: 'free' | 'paid'; disabled?: boolean },
  intl: IntlShape = currentIntl(),
): string {
  if (input.plan !== undefined)
    return intl.formatMessage(
      { id: 'admin.workspace.planChanged', defaultMessage: 'Plan of {name} changed to {plan, select, paid {paid} other {free}}.' },
      { name: workspace.name, plan: workspace.plan },
    );
  return workspace.disabled
    ? intl.formatMessage({ id: 'admin.workspace.disabledNow', defaultMessage: '{name} is disabled.' }, { name: workspace.name })
    : intl.formatMessage({ id: 'admin.workspace.enabledAgain', defaultMessage: '{name} is enabled again.' }, { name: workspace.name });
}
