import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { meQueryOptions } from '../../lib/me';
import { referralQueryOptions } from '../../features/settings/api/get-referral';
import { notificationSettingsQueryOptions } from '../../features/settings/api/notification-settings';
import { AccountOverview } from '../../features/settings/components/account-overview';
import { LanguageSetting } from '../../features/settings/components/language-setting';
import { NotificationDefaults } from '../../features/settings/components/notification-defaults';
import { ReferralCard } from '../../features/settings/components/referral-card';
import { DeleteWorkspace } from '../../features/settings/components/delete-workspace';
import { useSession } from '../../features/auth';
import { vaultUsageQueryOptions } from '../../features/vault/api/vault-api';
import { connectedAppsQueryOptions } from '../../features/oauth/api/oauth-api';
import { ConnectedApps } from '../../features/oauth/components/connected-apps';
import { useIntl } from '../../lib/intl';

export const Route = createFileRoute('/_authed/settings')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(meQueryOptions()),
      context.queryClient.ensureQueryData(referralQueryOptions()),
      context.queryClient.ensureQueryData(notificationSettingsQueryOptions()),
      context.queryClient.ensureQueryData(vaultUsageQueryOptions()),
      context.queryClient.ensureQueryData(connectedAppsQueryOptions()),
    ]),
  component: SettingsPage,
});

function SettingsPage() {
  const intl = useIntl();
  const session = useSession();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.settings.title', defaultMessage: 'Settings' })}
        description={intl.formatMessage({
          id: 'pages.settings.description',
          defaultMessage: 'Your workspace, its limits, what it has used this month, and notifications. How you sign in is under Security.',
        })}
        actions={
          <>
            <Link to="/security" className={buttonClass('secondary')}>
              {intl.formatMessage({ id: 'pages.settings.security', defaultMessage: 'Security' })}
            </Link>
            <Link to="/outbox" className={buttonClass('secondary')}>
              {intl.formatMessage({ id: 'pages.settings.outbox', defaultMessage: 'Outbox' })}
            </Link>
          </>
        }
      />
      <div className="space-y-6">
        <AccountOverview />
        <LanguageSetting />
        <NotificationDefaults />
        <ConnectedApps />
        <ReferralCard />
        {session.workspace.role === 'owner' ? <DeleteWorkspace workspaceName={session.workspace.name} /> : null}
      </div>
    </>
  );
}
