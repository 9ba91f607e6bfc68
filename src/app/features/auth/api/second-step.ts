import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import type { SecondStepRequest } from '../../../../contract/security';
import { isApiRequestError } from '../../../lib/api-error';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { startSession } from './sign-in';

/** Whether a sign-in (with a password, a reset link, or an invitation) waits for a code from the person's app. */
export const asksSecondStep = (error: unknown) => isApiRequestError(error) && error.details.reason === 'second_step_required';

/** The second step: a code from the authenticator app or a recovery code; the challenge rides in its cookie. */
export function useSecondStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SecondStepRequest) => dashboardFetch<Session>('/signin/second-step', { method: 'POST', json: input }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}
