import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/_authed/webhooks')({
  component: WebhooksPage,
});

function WebhooksPage() {
  return (
    <>
      <PageHeader title="Webhooks" description="Get an HTTP request the moment a transfer is downloaded or a file arrives." />
      <EmptyState title="Coming soon">Webhooks will appear here in an upcoming release.</EmptyState>
    </>
  );
}
