import { useMutation } from '@tanstack/react-query';
import type { OwnLanguageRequest, Session } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

export function setOwnLanguage(input: OwnLanguageRequest): Promise<Session> {
  return dashboardFetch<Session>('/language', { method: 'PUT', json: input });
}

/** Saves the person's own language, then serves this page again in it (as the server writes every page of theirs). */
export function useSetOwnLanguage() {
  return useMutation({
    mutationFn: setOwnLanguage,
    onSuccess: () => window.location.reload(),
  });
}
