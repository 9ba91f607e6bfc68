import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { meQueryOptions } from '../../features/settings/api/get-me';
import { referralQueryOptions } from '../../features/settings/api/get-referral';
import { AccountOverview } from '../../features/settings/components/account-overview';
import { ChangePassword } from '../../features/settings/components/change-password';
import { ReferralCard } from '../../features/settings/components/referral-card';

export const Route = createFileRoute('/_authed/settings')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(meQueryOptions()),
      context.queryClient.ensureQueryData(referralQueryOptions()),
    ]),
  component: SettingsPage,
});

function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your workspace, its plan, what it has used this month, and your password."
        actions={<Link to="/outbox" className={buttonClass('secondary')}>Outbox</Link>}
      />
      <div className="space-y-6">
        <AccountOverview />
        <ChangePassword />
        <ReferralCard />
      </div>
    </>
  );
}
