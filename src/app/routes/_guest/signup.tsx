import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { setupStateQueryOptions } from '../../features/auth/api/get-setup-state';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { defaultAfterSignIn, safeRedirectPath } from '../../lib/safe-redirect';
import { useDocumentTitle } from '../../lib/use-document-title';

interface SignUpSearch {
  /** A referral code from an invite link; kept in the address and sent with the sign-up. */
  ref?: string;
  redirect?: string;
}

export const Route = createFileRoute('/_guest/signup')({
  // Every key is returned, even when undefined, so a rejected raw value cannot show through.
  validateSearch: (search: Record<string, unknown>): SignUpSearch => ({
    ref: typeof search.ref === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(search.ref) ? search.ref : undefined,
    redirect: safeRedirectPath(search.redirect),
  }),
  loader: ({ context }) => context.queryClient.ensureQueryData(setupStateQueryOptions()),
  component: SignUpPage,
});

function SignUpPage() {
  const search = Route.useSearch();
  const target = safeRedirectPath(search.redirect);
  const ref = search.ref;
  const { data: setup } = useSuspenseQuery(setupStateQueryOptions());
  // Which form this visit shows is settled when the page opens: creating the first workspace
  // flips the setup state while the dashboard is still loading, and the page must not turn into
  // the other form (and title) in the meantime.
  const [firstWorkspace] = useState(setup.needsFirstWorkspace);
  useDocumentTitle(firstWorkspace ? 'Create your workspace' : 'Create an account');
  return <SignUpForm firstWorkspace={firstWorkspace} referralCode={ref} redirectTo={target ?? defaultAfterSignIn} />;
}
