import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/_authed/collections')({
  component: CollectionsPage,
});

function CollectionsPage() {
  return (
    <>
      <PageHeader title="Collections" description="Shared folders that guests can upload to and download from." />
      <EmptyState title="Coming soon">Collections will appear here in an upcoming release.</EmptyState>
    </>
  );
}
