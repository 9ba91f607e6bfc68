import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { startSession } from './sign-in';

/** The browser's own WebAuthn errors (the dialog closed, timed out, no passkey) in words a person can act on. */
export function browserRefusal(error: unknown): never {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    throw new Error('No passkey was used: the browser’s dialog was closed or timed out. Try again, or sign in with your password.');
  }
  throw error instanceof Error ? error : new Error('The browser could not use a passkey here.');
}

/** Whether this browser can use passkeys at all (WebAuthn, in a secure context). */
export const passkeysSupported = () => typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';

/**
 * Signs in with a passkey alone: the server's challenge, the browser's own dialog (any passkey of
 * this site), then the session. The WebAuthn helper is loaded only when used.
 */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { options } = await dashboardFetch<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>('/signin/passkey/options', { method: 'POST' });
      const credential = await startAuthentication({ optionsJSON: options }).catch(browserRefusal);
      return dashboardFetch<Session>('/signin/passkey', { method: 'POST', json: { credential } });
    },
    onSuccess: (session) => startSession(queryClient, session),
  });
}
