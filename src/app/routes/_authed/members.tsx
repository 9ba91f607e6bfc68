import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { useSession } from '../../features/auth/api/get-session';
import { membersQueryOptions } from '../../features/members/api/members';
import { MembersPage } from '../../features/members/components/members-page';

export const Route = createFileRoute('/_authed/members')({
  loader: ({ context }) => context.queryClient.ensureQueryData(membersQueryOptions()),
  component: MembersRoute,
});

function MembersRoute() {
  const session = useSession();
  return (
    <>
      <PageHeader title="Members" description={`The people of ${session.workspace.name} and what each may do: owners and admins manage the team, keys, webhooks and settings; members send and manage their own transfers and work in every collection and request.`} />
      <MembersPage session={session} />
    </>
  );
}
