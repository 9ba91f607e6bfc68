import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page-header';
import { useSession } from '../../../features/auth/api/get-session';
import { planLimitsQueryOptions } from '../../../features/send/api/get-plan-limits';
import { notificationSettingsQueryOptions } from '../../../features/settings/api/notification-settings';
import { NewTransferPage } from '../../../features/send/components/new-transfer-page';
import { useIntl } from '../../../lib/intl';

export const Route = createFileRoute('/_authed/transfers/new')({
  loader: ({ context }) => {
    // The notification defaults only pre-tick two boxes: fetched alongside, never waited for.
    void context.queryClient.prefetchQuery(notificationSettingsQueryOptions());
    return context.queryClient.ensureQueryData(planLimitsQueryOptions());
  },
  component: NewTransfer,
});

function NewTransfer() {
  const intl = useIntl();
  const session = useSession();
  const { data: limits } = useSuspenseQuery(planLimitsQueryOptions());
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.newTransfer.title', defaultMessage: 'New transfer' })}
        description={intl.formatMessage({
          id: 'pages.newTransfer.description',
          defaultMessage: 'Drop files or folders: they upload while you fill in the details. Press Send whenever you are ready: it goes out as soon as every file is up.',
        })}
      />
      <NewTransferPage key={session.workspace.id} workspaceId={session.workspace.id} limits={limits} />
    </>
  );
}
