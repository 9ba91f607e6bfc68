import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordForm } from '../../features/auth/components/password-reset-forms';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/_signed-out/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  return <ForgotPasswordForm />;
}
