import { createFileRoute } from '@tanstack/react-router';
import { ErrorReference } from '../../features/docs/components/error-reference';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/errors')({
  component: ErrorsPage,
});

function ErrorsPage() {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.docs.errorsTitle', defaultMessage: 'Errors' }));
  return <ErrorReference />;
}
