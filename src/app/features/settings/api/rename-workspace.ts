import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RenameWorkspaceRequest, Session } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { sessionQueryKey } from '../../../lib/query-keys';
import { meQueryKey } from '../../../lib/me';

export function renameWorkspace(input: RenameWorkspaceRequest): Promise<Session> {
  return dashboardFetch<Session>('/workspace', { method: 'PATCH', json: input });
}

/** The header (from the session) and the settings (from /me) show the new name at once. */
export function useRenameWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameWorkspace,
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryKey, session);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
