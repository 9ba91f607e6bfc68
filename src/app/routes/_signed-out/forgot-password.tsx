import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordForm } from '../../features/auth/components/password-reset-forms';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/_signed-out/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.forgotPassword.title', defaultMessage: 'Reset your password' }));
  return <ForgotPasswordForm />;
}
