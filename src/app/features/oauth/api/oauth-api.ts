import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConnectedApp, ConsentDetails } from '../../../../contract/oauth';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { requestJson } from '../../../lib/http';
import { userDataRoot } from '../../../lib/query-keys';

/**
 * An AI assistant asking for access (the OAuth consent, at /oauth/consent/{uid}: beside the page, so the
 * authorization server's interaction cookie goes along), and the assistants the owner connected.
 */

export const oauthKeys = {
  consent: (uid: string) => [...userDataRoot, 'oauth', 'consent', uid] as const,
  connectedApps: [...userDataRoot, 'oauth', 'connected-apps'] as const,
};

const consentUrl = (uid: string) => `/oauth/consent/${encodeURIComponent(uid)}`;

export const consentQueryOptions = (uid: string) =>
  queryOptions({
    queryKey: oauthKeys.consent(uid),
    queryFn: ({ signal }) => requestJson<ConsentDetails>(`${consentUrl(uid)}/details`, { signal }),
    // The request is answered once: reading it again after an answer would only say it is gone.
    staleTime: Infinity,
    retry: false,
  });

/** The owner's answer; resolves with where the browser goes next (back to the app, with a code or access_denied). */
export async function answerConsent(uid: string, answer: { approve: boolean; scopes: string[] }): Promise<string> {
  return (await requestJson<{ redirectTo: string }>(consentUrl(uid), { method: 'POST', json: answer })).redirectTo;
}

export const connectedAppsQueryOptions = () =>
  queryOptions({ queryKey: oauthKeys.connectedApps, queryFn: async () => (await dashboardFetch<{ apps: ConnectedApp[] }>('/connected-apps')).apps });

export function useRevokeConnectedApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => dashboardFetch<{ revoked: true }>(`/connected-apps/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthKeys.connectedApps }),
  });
}
