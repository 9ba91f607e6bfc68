import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { setupStateQueryOptions } from '../../features/auth/api/get-setup-state';
import { SignUpClosed, SignUpForm } from '../../features/auth/components/sign-up-form';
import { defaultAfterSignIn, safeRedirectPath } from '../../lib/safe-redirect';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

interface SignUpSearch {
  /** A referral code from an invite link; kept in the address and sent with the sign-up. */
  ref?: string;
  /** The token of the operator's invitation, when sign-up is by invitation. */
  invite?: string;
  redirect?: string;
}

export const Route = createFileRoute('/_signed-out/signup')({
  // Every key is returned, even when undefined, so a rejected raw value cannot show through.
  validateSearch: (search: Record<string, unknown>): SignUpSearch => ({
    ref: typeof search.ref === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(search.ref) ? search.ref : undefined,
    invite: typeof search.invite === 'string' && /^[A-Za-z0-9]{1,100}$/.test(search.invite) ? search.invite : undefined,
    redirect: safeRedirectPath(search.redirect),
  }),
  loaderDeps: ({ search: { invite } }) => ({ invite }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(setupStateQueryOptions(deps.invite)),
  component: SignUpPage,
});

function SignUpPage() {
  const intl = useIntl();
  const search = Route.useSearch();
  const target = safeRedirectPath(search.redirect);
  const ref = search.ref;
  const { data: setup } = useSuspenseQuery(setupStateQueryOptions(search.invite));
  // Which form this visit shows is settled when the page opens: creating the first workspace
  // flips the setup state while the dashboard is still loading, and the page must not turn into
  // the other form (and title) in the meantime.
  const [firstWorkspace] = useState(setup.needsFirstWorkspace);
  const [closedTo] = useState(firstWorkspace || setup.signup === 'open' || setup.invite ? null : setup.signup);
  useDocumentTitle(
    closedTo
      ? intl.formatMessage({ id: 'pages.signUp.closedTitle', defaultMessage: 'Sign-up' })
      : firstWorkspace
        ? intl.formatMessage({ id: 'pages.signUp.firstWorkspaceTitle', defaultMessage: 'Create your workspace' })
        : intl.formatMessage({ id: 'pages.signUp.title', defaultMessage: 'Create an account' }),
  );
  if (closedTo) return <SignUpClosed mode={closedTo} invalidInvite={search.invite !== undefined} />;
  return (
    <SignUpForm
      firstWorkspace={firstWorkspace}
      referralCode={ref}
      invite={setup.invite && search.invite ? { token: search.invite, email: setup.invite.email } : undefined}
      redirectTo={target ?? defaultAfterSignIn}
    />
  );
}
