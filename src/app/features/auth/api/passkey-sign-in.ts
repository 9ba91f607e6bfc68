import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Session } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { currentIntl } from '../../../lib/intl';
import { startSession } from './sign-in';

/** The browser's own WebAuthn errors (the dialog closed, timed out, no passkey) in words a person can act on. */
export function browserRefusal(error: unknown): never {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    throw new Error(
      currentIntl().formatMessage({
        id: 'auth.passkey.dialogClosed',
        defaultMessage: 'No passkey was used: the browser’s dialog was closed or timed out. Try again, or sign in with your password.',
      }),
    );
  }
  throw error instanceof Error ? error : new Error(currentIntl().formatMessage({ id: 'auth.passkey.unusable', defaultMessage: 'The browser could not use a passkey here.' }));
}

/**
 * Whether this browser can use passkeys here: WebAuthn, in a secure context, at a domain name. A passkey belongs to a
 * domain, so a server reached by its IP address (http://127.0.0.1, a LAN address) cannot have any: browsers refuse
 * with "… is an invalid domain", which the sign-in page would otherwise show to everyone who opens it.
 */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function' && !isIpAddress(window.location.hostname);

const isIpAddress = (hostname: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');

/**
 * Signs in with a passkey alone: the server's challenge, the browser's own dialog (any passkey of
 * this site), then the session. The WebAuthn helper is loaded only when used.
 */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signInWithPasskey(false),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

/** The server's challenge, the browser's ceremony (its dialog, or its autofill with `autofill`), then the session. */
async function signInWithPasskey(autofill: boolean): Promise<Session> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { options } = await dashboardFetch<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>('/signin/passkey/options', { method: 'POST' });
  const credential = await (autofill ? startAuthentication({ optionsJSON: options, useBrowserAutofill: true }) : startAuthentication({ optionsJSON: options }).catch(browserRefusal));
  return dashboardFetch<Session>('/signin/passkey', { method: 'POST', json: { credential } });
}

/**
 * Conditional UI: where the browser offers passkeys among the email field's autofill suggestions
 * (the field says `autocomplete="username webauthn"`), one picked there signs in at once. Nothing
 * happens where it does not, or while the person types a password instead; pressing "Sign in with
 * a passkey" replaces the waiting request with its own. A refusal of the passkey picked is returned.
 */
export function usePasskeyAutofill(onSignedIn: () => void): unknown {
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!passkeysSupported()) return;
    let active = true;
    void (async () => {
      const { browserSupportsWebAuthnAutofill } = await import('@simplewebauthn/browser');
      if (!active || !(await browserSupportsWebAuthnAutofill()) || !active) return;
      const session = await signInWithPasskey(true);
      await startSession(queryClient, session);
      if (active) onSignedIn();
    })().catch((err: unknown) => {
      // Cancelled: by leaving the page, or by the button's own request.
      if (active && !(err instanceof Error && (err.name === 'AbortError' || err.name === 'NotAllowedError'))) setError(err);
    });
    return () => {
      active = false;
      void import('@simplewebauthn/browser').then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony());
    };
    // Once per visit of the page: onSignedIn navigates, whichever render it came from.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient]);
  return error;
}
