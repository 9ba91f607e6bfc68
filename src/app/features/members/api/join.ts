import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import type { InvitationPreview } from '../../../../contract/members';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { startSession } from '../../auth';

/** What an invitation's link is for; the token travels in the body, never in a request URL. */
export function useInvitationPreview(token: string | undefined) {
  return useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: () => dashboardFetch<InvitationPreview>('/join/preview', { method: 'POST', json: { token } }),
    enabled: token !== undefined,
    retry: false,
    staleTime: Infinity,
  });
}

/** Joins the invitation's workspace as the signed-in person; the session moves into it. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => dashboardFetch<Session>('/join', { method: 'POST', json: { token } }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

/** Joins with the invited address's password (a person with an account, signed in or not), and signs in there. */
export function useJoinSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => dashboardFetch<Session>('/join/signin', { method: 'POST', json: input }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

/** Creates the invited account, joined to the workspace, and signs it in. */
export function useJoinSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; name: string; password: string }) => dashboardFetch<Session>('/join/signup', { method: 'POST', json: input }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}
