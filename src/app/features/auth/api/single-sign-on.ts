import { queryOptions } from '@tanstack/react-query';
import { defineMessages } from 'react-intl';
import type { SignInProvider } from '../../../../contract/security';
import { singleSignOnRefusals, type SingleSignOnRefusal } from '../../../../contract/single-sign-on-refusals';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

/** The identity providers the operator set up: one "Sign in with …" button each. */
export const signInProvidersQueryOptions = () =>
  queryOptions({
    queryKey: ['sign-in', 'providers'] as const,
    queryFn: async () => (await dashboardFetch<{ providers: SignInProvider[] }>('/signin/providers')).providers,
    staleTime: 5 * 60_000,
  });

/** Signing in through a provider is a navigation: the server sends the browser on to the provider, which sends it back signed in. */
export const singleSignOnHref = (providerId: string) => `/api/dashboard/signin/sso?provider=${encodeURIComponent(providerId)}`;

/** Only the refusals the server names: anything else in the address is ignored, never shown. */
export const refusalFrom = (value: unknown): SingleSignOnRefusal | undefined =>
  typeof value === 'string' && (singleSignOnRefusals as readonly string[]).includes(value) ? (value as SingleSignOnRefusal) : undefined;

/** Why single sign-on did not sign the person in, in words they can act on (formatted where shown). */
export const refusalMessages = defineMessages<SingleSignOnRefusal>({
  expired: { id: 'auth.singleSignOn.refusalExpired', defaultMessage: 'That sign-in took too long or was opened in another browser. Try again.' },
  refused: {
    id: 'auth.singleSignOn.refusalRefused',
    defaultMessage: 'Your identity provider’s answer could not be checked, so nobody was signed in. Try again; if it keeps happening, tell whoever runs this server.',
  },
  unverified_email: {
    id: 'auth.singleSignOn.refusalUnverifiedEmail',
    defaultMessage: 'Your identity provider does not confirm your email address. Verify it there, then try again.',
  },
  no_workspace: {
    id: 'auth.singleSignOn.refusalNoWorkspace',
    defaultMessage:
      'No workspace here signs in people of your email domain through this provider. Ask your workspace’s owner to tie your domain to it, or sign in with your password.',
  },
  member_limit: {
    id: 'auth.singleSignOn.refusalMemberLimit',
    defaultMessage: 'Your organisation’s workspace is full on its plan. Ask its owner to make room or upgrade.',
  },
  unavailable: {
    id: 'auth.singleSignOn.refusalUnavailable',
    defaultMessage: 'That identity provider cannot be reached right now. Try again later, or sign in with your password.',
  },
  disabled: { id: 'auth.singleSignOn.refusalDisabled', defaultMessage: 'This account or its workspace has been disabled by the operator of this server.' },
});
