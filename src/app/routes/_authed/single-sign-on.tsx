import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { SingleSignOnButtons, useSession } from '../../features/auth';

/**
 * Where a session signed in with a password or a passkey lands when its workspace requires single
 * sign-on: nothing else of the workspace answers it, so it offers the provider (and the shell still
 * offers the workspace switcher and signing out).
 */
export const Route = createFileRoute('/_authed/single-sign-on')({
  component: SingleSignOnRequiredPage,
});

function SingleSignOnRequiredPage() {
  const session = useSession();
  const required = session.workspace.requireSingleSignOn && !session.user.singleSignOn;
  return (
    <>
      <PageHeader title="Sign in through your organisation" />
      <div className="max-w-md space-y-4">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {required
            ? `${session.workspace.name} asks everyone to sign in through its identity provider. You signed in another way: sign in through the provider to continue, or switch to another workspace.`
            : `You are signed in through ${session.workspace.name}’s identity provider, or it does not require one: nothing to do here.`}
        </p>
        {required ? <SingleSignOnButtons /> : null}
      </div>
    </>
  );
}
