import { createFileRoute } from '@tanstack/react-router';
import { openApiDocumentQueryOptions } from '../../features/docs/api/get-openapi-document';
import { ApiReference } from '../../features/docs/components/api-reference';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/api')({
  loader: ({ context }) => context.queryClient.ensureQueryData(openApiDocumentQueryOptions()),
  component: ApiReferencePage,
});

function ApiReferencePage() {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.docs.apiTitle', defaultMessage: 'API reference' }));
  return <ApiReference />;
}
