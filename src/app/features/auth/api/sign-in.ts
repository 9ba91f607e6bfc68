import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Session, SignInRequest } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { noteOwnLocale } from '../../../lib/intl';
import { userDataRoot } from '../../../lib/query-keys';
import { forgetAccessToken } from '../../../lib/v1-client';
import { lockVault } from '../../vault';
import { sessionQueryKey } from './get-session';

export function signIn(input: SignInRequest): Promise<Session> {
  return dashboardFetch<Session>('/signin', { method: 'POST', json: input });
}

/**
 * A new session: nothing cached (or unlocked) for whoever was signed in before may show, and the pages that follow
 * in the person's own language.
 */
export function startSession(queryClient: QueryClient, session: Session) {
  noteOwnLocale(session.user.language);
  forgetAccessToken();
  lockVault();
  queryClient.removeQueries({ queryKey: userDataRoot });
  queryClient.setQueryData(sessionQueryKey, session);
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => startSession(queryClient, session),
  });
}
