import { createFileRoute, redirect } from '@tanstack/react-router';
import { setupStateQueryOptions } from '../../features/auth/api/get-setup-state';
import { refusalFrom } from '../../features/auth/api/single-sign-on';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import type { SingleSignOnRefusal } from '../../../contract/single-sign-on-refusals';
import { defaultAfterSignIn, safeRedirectPath } from '../../lib/safe-redirect';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

interface SignInSearch {
  /** Where to go after signing in; only in-app paths survive validation. */
  redirect?: string;
  /** A sign-in through an identity provider came back refused: why (only the server's own reasons survive). */
  sso_error?: SingleSignOnRefusal;
  /** A sign-in through an identity provider waits for the code of the person's authenticator app. */
  second_step?: '1';
}

export const Route = createFileRoute('/_signed-out/signin')({
  // The key is always returned, even when undefined: the router merges validated search over the
  // raw query string, so leaving a rejected `redirect` out would let the raw value through.
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    redirect: safeRedirectPath(search.redirect),
    sso_error: refusalFrom(search.sso_error),
    second_step: search.second_step === '1' || search.second_step === 1 ? '1' : undefined,
  }),
  beforeLoad: async ({ context, search }) => {
    // Nobody can sign in before the first workspace exists: offer to create it instead.
    const setup = await context.queryClient.ensureQueryData(setupStateQueryOptions()).catch(() => null);
    if (setup?.needsFirstWorkspace) throw redirect({ to: '/signup', search, replace: true });
  },
  component: SignInPage,
});

function SignInPage() {
  // Checked again here: whatever reaches navigation must be an in-app path.
  const search = Route.useSearch();
  const target = safeRedirectPath(search.redirect);
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.signIn.title', defaultMessage: 'Sign in' }));
  return (
    <SignInForm
      redirectTo={target ?? defaultAfterSignIn}
      redirectParam={target}
      singleSignOn={{ ...(search.sso_error ? { refusal: search.sso_error } : {}), secondStep: search.second_step === '1' }}
    />
  );
}
