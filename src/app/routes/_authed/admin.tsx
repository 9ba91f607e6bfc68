import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { useIntl } from '../../lib/intl';
import { invitesQueryOptions } from '../../features/admin/api/invites';
import { adminPeopleQueryOptions } from '../../features/admin/api/people';
import { adminWorkspacesQueryOptions } from '../../features/admin/api/workspaces';
import { AdminPage } from '../../features/admin/components/admin-page';

export const Route = createFileRoute('/_authed/admin')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(adminWorkspacesQueryOptions()),
      context.queryClient.ensureQueryData(adminPeopleQueryOptions()),
      context.queryClient.ensureQueryData(invitesQueryOptions()),
    ]),
  component: Admin,
});

function Admin() {
  const intl = useIntl();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.admin.title', defaultMessage: 'Admin' })}
        description={intl.formatMessage({
          id: 'pages.admin.description',
          defaultMessage: 'Everything on this server: its workspaces, their plans and usage, its people, and who may sign up.',
        })}
      />
      <AdminPage />
    </>
  );
}
