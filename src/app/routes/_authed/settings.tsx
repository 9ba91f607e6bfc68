import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { meQueryOptions } from '../../lib/me';
import { referralQueryOptions } from '../../features/settings/api/get-referral';
import { notificationSettingsQueryOptions } from '../../features/settings/api/notification-settings';
import { AccountOverview } from '../../features/settings/components/account-overview';
import { ChangePassword } from '../../features/settings/components/change-password';
import { NotificationDefaults } from '../../features/settings/components/notification-defaults';
import { ReferralCard } from '../../features/settings/components/referral-card';
import { vaultUsageQueryOptions } from '../../features/vault/api/vault-api';
import { connectedAppsQueryOptions } from '../../features/oauth/api/oauth-api';
import { ConnectedApps } from '../../features/oauth/components/connected-apps';
import { sessionsQueryOptions, twoStepQueryOptions } from '../../features/security/api/security-api';
import { SessionsCard } from '../../features/security/components/sessions-card';
import { TwoStepCard } from '../../features/security/components/two-step-card';

export const Route = createFileRoute('/_authed/settings')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(meQueryOptions()),
      context.queryClient.ensureQueryData(referralQueryOptions()),
      context.queryClient.ensureQueryData(notificationSettingsQueryOptions()),
      context.queryClient.ensureQueryData(vaultUsageQueryOptions()),
      context.queryClient.ensureQueryData(connectedAppsQueryOptions()),
      context.queryClient.ensureQueryData(twoStepQueryOptions()),
      context.queryClient.ensureQueryData(sessionsQueryOptions()),
    ]),
  component: SettingsPage,
});

function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your workspace, its limits, what it has used this month, notifications, and how you sign in."
        actions={<Link to="/outbox" className={buttonClass('secondary')}>Outbox</Link>}
      />
      <div className="space-y-6">
        <AccountOverview />
        <NotificationDefaults />
        <ConnectedApps />
        <ReferralCard />
        <section aria-labelledby="security-heading" id="security" className="space-y-6 pt-2">
          <h2 id="security-heading" className="text-xl font-semibold tracking-tight">
            Security
          </h2>
          <ChangePassword />
          <TwoStepCard />
          <SessionsCard />
        </section>
      </div>
    </>
  );
}
