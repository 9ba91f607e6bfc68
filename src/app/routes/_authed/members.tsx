import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { useSession } from '../../features/auth/api/get-session';
import { membersQueryOptions } from '../../features/members/api/members';
import { MembersPage } from '../../features/members/components/members-page';
import { useIntl } from '../../lib/intl';

export const Route = createFileRoute('/_authed/members')({
  loader: ({ context }) => context.queryClient.ensureQueryData(membersQueryOptions()),
  component: MembersRoute,
});

function MembersRoute() {
  const intl = useIntl();
  const session = useSession();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.members.title', defaultMessage: 'Members' })}
        description={intl.formatMessage(
          {
            id: 'pages.members.description',
            defaultMessage:
              'The people of {workspace} and what each may do: owners and admins manage the team, keys, webhooks and settings; members send and manage their own transfers and work in every collection and request.',
          },
          { workspace: <bdi key="workspace">{session.workspace.name}</bdi> },
        )}
      />
      <MembersPage session={session} />
    </>
  );
}
