import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { meQueryOptions } from '../../lib/me';
import { referralQueryOptions } from '../../features/settings/api/get-referral';
import { notificationSettingsQueryOptions } from '../../features/settings/api/notification-settings';
import { AccountOverview } from '../../features/settings/components/account-overview';
import { NotificationDefaults } from '../../features/settings/components/notification-defaults';
import { ReferralCard } from '../../features/settings/components/referral-card';
import { vaultUsageQueryOptions } from '../../features/vault/api/vault-api';
import { connectedAppsQueryOptions } from '../../features/oauth/api/oauth-api';
import { ConnectedApps } from '../../features/oauth/components/connected-apps';

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
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your workspace, its limits, what it has used this month, and notifications. How you sign in is under Security."
        actions={
          <>
            <Link to="/security" className={buttonClass('secondary')}>
              Security
            </Link>
            <Link to="/outbox" className={buttonClass('secondary')}>
              Outbox
            </Link>
          </>
        }
      />
      <div className="space-y-6">
        <AccountOverview />
        <NotificationDefaults />
        <ConnectedApps />
        <ReferralCard />
      </div>
    </>
  );
}
