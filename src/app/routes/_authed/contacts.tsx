import { createFileRoute } from '@tanstack/react-router';
import { RouteErrorPage } from '../../components/route-states';
import { useSession } from '../../features/auth/api/get-session';
import { ContactsPage } from '../../features/contacts/components/contacts-page';
import { contactsQueryOptions } from '../../lib/contacts';

export const Route = createFileRoute('/_authed/contacts')({
  // Contacts work on the free plan too.
  loader: ({ context }) => context.queryClient.ensureQueryData(contactsQueryOptions()),
  errorComponent: RouteErrorPage,
  component: ContactsRoute,
});

function ContactsRoute() {
  const session = useSession();
  return <ContactsPage workspaceName={session.workspace.name} />;
}
