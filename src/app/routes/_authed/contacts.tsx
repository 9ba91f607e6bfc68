import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/_authed/contacts')({
  component: ContactsPage,
});

function ContactsPage() {
  return (
    <>
      <PageHeader title="Contacts" description="The people you send to most, ready to pick when you send." />
      <EmptyState title="Coming soon">Contacts will appear here in an upcoming release.</EmptyState>
    </>
  );
}
