import { useMutation } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import type { DeleteWorkspaceRequest } from '../../../../contract/members';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

/** Deletes the workspace the session works in; the session then works in the owner's next workspace, or is gone (null). */
export function deleteWorkspace(input: DeleteWorkspaceRequest): Promise<{ session: Session | null }> {
  return dashboardFetch<{ session: Session | null }>('/workspaces/current', { method: 'DELETE', json: input });
}

export const useDeleteWorkspace = () => useMutation({ mutationFn: deleteWorkspace });
