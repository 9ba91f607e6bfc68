import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session, SetupState, SignUpRequest } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { setupStateQueryKey } from './get-setup-state';
import { startSession } from './sign-in';

export function signUp(input: SignUpRequest): Promise<Session> {
  return dashboardFetch<Session>('/signup', { method: 'POST', json: input });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: (session) => {
      queryClient.setQueryData<SetupState>(setupStateQueryKey, (setup) => (setup ? { ...setup, needsFirstWorkspace: false } : setup));
      startSession(queryClient, session);
    },
  });
}
