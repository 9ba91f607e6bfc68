import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfirmIdentityRequest, EnableTwoStepRequest, Passkey, SignInSession, SingleSignOnSettings, TieSignInDomainRequest, TwoStepSetup, TwoStepStatus } from '../../../../contract/security';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import type { Session } from '../../../../contract/dashboard';
import { sessionQueryKey, userDataRoot } from '../../../lib/query-keys';
import { browserRefusal } from '../../auth';

/** Settings → Security: two-step verification and the person's sessions (/api/dashboard/security). */

export const securityKeys = {
  twoStep: [...userDataRoot, 'security', 'two-step'] as const,
  sessions: [...userDataRoot, 'security', 'sessions'] as const,
};

export const twoStepQueryOptions = () => queryOptions({ queryKey: securityKeys.twoStep, queryFn: () => dashboardFetch<TwoStepStatus>('/security/two-step') });

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: securityKeys.sessions, queryFn: async () => (await dashboardFetch<{ sessions: SignInSession[] }>('/security/sessions')).sessions });

type RecoveryCodes = { recoveryCodes: string[] };

/**
 * Every change to two-step verification can end other sessions, and changes what the session says
 * (whether a workspace's requirement is met), so all three are read again.
 */
function useSecurityMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([securityKeys.twoStep, securityKeys.sessions, sessionQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** Requires something of everyone in the workspace (owners and admins), or stops: the session says which. */
function useSetRequirement(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => dashboardFetch<Session>(path, { method: 'PUT', json: { required } }),
    onSuccess: (session) => queryClient.setQueryData(sessionQueryKey, session),
  });
}

export const useSetTwoStepRequirement = () => useSetRequirement('/workspace/two-step-requirement');

export const useSetSingleSignOnRequirement = () => useSetRequirement('/workspace/single-sign-on/requirement');

export const useStartTwoStepSetup = () => useMutation({ mutationFn: () => dashboardFetch<TwoStepSetup>('/security/two-step/setup', { method: 'POST' }) });

export const useEnableTwoStep = () =>
  useSecurityMutation((input: EnableTwoStepRequest) => dashboardFetch<RecoveryCodes>('/security/two-step/enable', { method: 'POST', json: input }));

export const useDisableTwoStep = () => useSecurityMutation((input: ConfirmIdentityRequest) => dashboardFetch<void>('/security/two-step/disable', { method: 'POST', json: input }));

export const useRegenerateRecoveryCodes = () =>
  useSecurityMutation((input: ConfirmIdentityRequest) => dashboardFetch<RecoveryCodes>('/security/two-step/recovery-codes', { method: 'POST', json: input }));

export const useEndSession = () => useSecurityMutation((id: string) => dashboardFetch<void>(`/security/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useEndOtherSessions = () => useSecurityMutation(() => dashboardFetch<{ ended: number }>('/security/sessions/end-others', { method: 'POST' }));

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: [...userDataRoot, 'security', 'passkeys'] as const, queryFn: async () => (await dashboardFetch<{ passkeys: Passkey[] }>('/security/passkeys')).passkeys });

/** Adds a passkey: the server's options, the browser's own dialog (WebAuthn), then the credential kept under its name. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const { options } = await dashboardFetch<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('/security/passkeys/options', { method: 'POST' });
      const credential = await startRegistration({ optionsJSON: options }).catch(browserRefusal);
      return dashboardFetch<Passkey>('/security/passkeys', { method: 'POST', json: { name, credential } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => dashboardFetch<void>(`/security/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => Promise.all([passkeysQueryOptions().queryKey, securityKeys.sessions].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

const singleSignOnKey = [...userDataRoot, 'security', 'single-sign-on'] as const;

/** The workspace's sign-in domains and providers (owners and admins). */
export const singleSignOnQueryOptions = () => queryOptions({ queryKey: singleSignOnKey, queryFn: () => dashboardFetch<SingleSignOnSettings>('/workspace/single-sign-on') });

function useSingleSignOnMutation<I>(mutationFn: (input: I) => Promise<SingleSignOnSettings>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (settings) => queryClient.setQueryData(singleSignOnKey, settings) });
}

export const useTieSignInDomain = () =>
  useSingleSignOnMutation((input: TieSignInDomainRequest) => dashboardFetch<SingleSignOnSettings>('/workspace/single-sign-on/domains', { method: 'POST', json: input }));

export const useUntieSignInDomain = () =>
  useSingleSignOnMutation((domain: string) => dashboardFetch<SingleSignOnSettings>(`/workspace/single-sign-on/domains/${encodeURIComponent(domain)}`, { method: 'DELETE' }));
