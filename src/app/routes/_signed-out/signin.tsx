import { createFileRoute, redirect } from '@tanstack/react-router';
import { setupStateQueryOptions } from '../../features/auth/api/get-setup-state';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { defaultAfterSignIn, safeRedirectPath } from '../../lib/safe-redirect';
import { useDocumentTitle } from '../../lib/use-document-title';

interface SignInSearch {
  /** Where to go after signing in; only in-app paths survive validation. */
  redirect?: string;
}

export const Route = createFileRoute('/_signed-out/signin')({
  // The key is always returned, even when undefined: the router merges validated search over the
  // raw query string, so leaving a rejected `redirect` out would let the raw value through.
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({ redirect: safeRedirectPath(search.redirect) }),
  beforeLoad: async ({ context, search }) => {
    // Nobody can sign in before the first workspace exists: offer to create it instead.
    const setup = await context.queryClient.ensureQueryData(setupStateQueryOptions()).catch(() => null);
    if (setup?.needsFirstWorkspace) throw redirect({ to: '/signup', search, replace: true });
  },
  component: SignInPage,
});

function SignInPage() {
  // Checked again here: whatever reaches navigation must be an in-app path.
  const target = safeRedirectPath(Route.useSearch().redirect);
  useDocumentTitle('Sign in');
  return <SignInForm redirectTo={target ?? defaultAfterSignIn} redirectParam={target} />;
}
