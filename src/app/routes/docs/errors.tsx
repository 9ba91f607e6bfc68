import { createFileRoute } from '@tanstack/react-router';
import { ErrorReference } from '../../features/docs/components/error-reference';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/errors')({
  component: ErrorsPage,
});

function ErrorsPage() {
  useDocumentTitle('Errors');
  return <ErrorReference />;
}
