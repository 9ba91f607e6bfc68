import { createFileRoute } from '@tanstack/react-router';
import { openApiDocumentQueryOptions } from '../../features/docs/api/get-openapi-document';
import { ApiReference } from '../../features/docs/components/api-reference';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/api')({
  loader: ({ context }) => context.queryClient.ensureQueryData(openApiDocumentQueryOptions()),
  component: ApiReferencePage,
});

function ApiReferencePage() {
  useDocumentTitle('API reference');
  return <ApiReference />;
}
