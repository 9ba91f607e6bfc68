import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';

export const Route = createFileRoute('/_authed/transfers/')({
  component: TransfersPage,
});

function TransfersPage() {
  return (
    <>
      <PageHeader title="Transfers" description="Send files to anyone by link or email, with expiry and download limits." />
      <EmptyState title="Coming soon">Transfers will appear here in an upcoming release.</EmptyState>
    </>
  );
}
