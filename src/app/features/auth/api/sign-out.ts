import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';
import { forgetAccessToken } from '../../../lib/v1-client';
import { lockVault } from '../../vault';
import { sessionQueryKey } from './get-session';

export function signOut(): Promise<void> {
  return dashboardFetch<void>('/signout', { method: 'POST' });
}

/**
 * Signs out, then lets the caller leave the signed-in area (`onSignedOut`, e.g. navigate to
 * /signin) before the session and the user's data are dropped from the cache, so no page behind
 * sign-in renders without them in between.
 */
export function useSignOut({ onSignedOut }: { onSignedOut: () => Promise<void> }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      forgetAccessToken();
      lockVault();
      await onSignedOut();
      queryClient.setQueryData(sessionQueryKey, null);
      queryClient.removeQueries({ queryKey: userDataRoot });
    },
  });
}
