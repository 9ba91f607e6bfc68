import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { startSession } from './sign-in';

/** Mails a reset link when the address has an account; the answer is the same either way. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => dashboardFetch<{ sent: true }>('/password-reset', { method: 'POST', json: { email } }) });
}

/** Sets the new password with the mailed token; the account's other sessions end and this one starts. */
export function useCompletePasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) => dashboardFetch<Session>('/password-reset/complete', { method: 'POST', json: input }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}
