import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppShell } from '../components/layout/app-shell';
import { sessionQueryOptions, useSession } from '../features/auth/api/get-session';
import { SignOutButton } from '../features/auth/components/sign-out-button';
import { WorkspaceSwitcher } from '../features/members/components/workspace-switcher';
import { useRequiredTwoStepWatch } from '../features/security/api/use-required-two-step';
import { useIdleLock } from '../features/vault/vault-lock';
import { safeRedirectPath } from '../lib/safe-redirect';

/** Everything behind sign-in. Without a session, off to /signin, remembering where the user was going. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
    if (!session) {
      throw redirect({ to: '/signin', search: { redirect: safeRedirectPath(location.href) } });
    }
    // The workspace requires two-step verification and this person has not set it up: nothing else answers them until they do.
    if (session.workspace.requireTwoStep && !session.user.twoStep && location.pathname !== '/security') {
      throw redirect({ to: '/security', replace: true });
    }
    // The workspace requires single sign-on and this session was signed in another way: sign in through the provider.
    if (session.workspace.requireSingleSignOn && !session.user.singleSignOn && location.pathname !== '/single-sign-on') {
      throw redirect({ to: '/single-sign-on', replace: true });
    }
  },
  component: AuthedLayout,
});

function AuthedLayout() {
  const session = useSession();
  useIdleLock();
  useRequiredTwoStepWatch();
  return (
    <AppShell
      workspace={<WorkspaceSwitcher session={session} />}
      isOperator={session.user.isOperator}
      role={session.workspace.role}
      plan={session.billing === 'on' ? session.workspace.plan : null}
      signOut={<SignOutButton />}
    >
      <Outlet />
    </AppShell>
  );
}
