import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { useSession } from '../../features/auth';
import { ChangePassword } from '../../features/settings/components/change-password';
import { passkeysQueryOptions, sessionsQueryOptions, twoStepQueryOptions } from '../../features/security/api/security-api';
import { PasskeysCard } from '../../features/security/components/passkeys-card';
import { SessionsCard } from '../../features/security/components/sessions-card';
import { SingleSignOnCard } from '../../features/security/components/single-sign-on-card';
import { TwoStepCard } from '../../features/security/components/two-step-card';
import { TwoStepRequirementCard } from '../../features/security/components/two-step-requirement-card';
import { useIntl } from '../../lib/intl';

/**
 * Settings → Security: the password, two-step verification, and where the person is signed in. It
 * needs only the dashboard's own endpoints, so a member whose workspace requires two-step
 * verification can set it up here before anything else answers them.
 */
export const Route = createFileRoute('/_authed/security')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(twoStepQueryOptions()),
      context.queryClient.ensureQueryData(sessionsQueryOptions()),
      context.queryClient.ensureQueryData(passkeysQueryOptions()),
    ]),
  component: SecurityPage,
});

function SecurityPage() {
  const intl = useIntl();
  const session = useSession();
  const mustEnrol = session.workspace.requireTwoStep && !session.user.twoStep;
  const manages = session.workspace.role !== 'member';
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.security.title', defaultMessage: 'Security' })}
        description={intl.formatMessage({
          id: 'pages.security.description',
          defaultMessage: 'How you sign in: your password, two-step verification, passkeys, single sign-on, and the browsers where you are signed in.',
        })}
        actions={
          mustEnrol ? null : (
            <Link to="/settings" className={buttonClass('secondary')}>
              {intl.formatMessage({ id: 'pages.security.settings', defaultMessage: 'Settings' })}
            </Link>
          )
        }
      />
      {mustEnrol ? (
        <div role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
          {intl.formatMessage(
            {
              id: 'pages.security.mustEnrol',
              defaultMessage: '{workspace} asks everyone to use two-step verification. Set up an authenticator app below to continue.',
            },
            { workspace: <bdi key="workspace">{session.workspace.name}</bdi> },
          )}
        </div>
      ) : null}
      <div className="space-y-6">
        <TwoStepCard />
        <PasskeysCard />
        {manages ? <TwoStepRequirementCard /> : null}
        {manages ? <SingleSignOnCard /> : null}
        <SessionsCard />
        <ChangePassword />
      </div>
    </>
  );
}
