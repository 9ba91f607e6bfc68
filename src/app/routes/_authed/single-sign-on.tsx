import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { SingleSignOnButtons, useSession } from '../../features/auth';
import { useIntl } from '../../lib/intl';

/**
 * Where a session signed in with a password or a passkey lands when its workspace requires single
 * sign-on: nothing else of the workspace answers it, so it offers the provider (and the shell still
 * offers the workspace switcher and signing out).
 */
export const Route = createFileRoute('/_authed/single-sign-on')({
  component: SingleSignOnRequiredPage,
});

function SingleSignOnRequiredPage() {
  const intl = useIntl();
  const session = useSession();
  const workspace = <bdi key="workspace">{session.workspace.name}</bdi>;
  const required = session.workspace.requireSingleSignOn && !session.user.singleSignOn;
  return (
    <>
      <PageHeader title={intl.formatMessage({ id: 'pages.singleSignOn.title', defaultMessage: 'Sign in through your organisation' })} />
      <div className="max-w-md space-y-4">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {required
            ? intl.formatMessage(
                {
                  id: 'pages.singleSignOn.required',
                  defaultMessage:
                    '{workspace} asks everyone to sign in through its identity provider. You signed in another way: sign in through the provider to continue, or switch to another workspace.',
                },
                { workspace },
              )
            : intl.formatMessage(
                {
                  id: 'pages.singleSignOn.notRequired',
                  defaultMessage: 'You are signed in through {workspace}’s identity provider, or it does not require one: nothing to do here.',
                },
                { workspace },
              )}
        </p>
        {required ? <SingleSignOnButtons /> : null}
      </div>
    </>
  );
}
