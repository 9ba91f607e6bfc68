import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordForm } from '../../features/auth/components/password-reset-forms';
import { defaultAfterSignIn } from '../../lib/safe-redirect';
import { useIntl } from '../../lib/intl';
import { useDocumentTitle } from '../../lib/use-document-title';

interface ResetSearch {
  /** The single-use token from the mailed link. */
  token?: string;
}

export const Route = createFileRoute('/_signed-out/reset-password')({
  validateSearch: (search: Record<string, unknown>): ResetSearch => ({
    token: typeof search.token === 'string' && /^[A-Za-z0-9]{1,100}$/.test(search.token) ? search.token : undefined,
  }),
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.resetPassword.title', defaultMessage: 'Choose a new password' }));
  return <ResetPasswordForm token={Route.useSearch().token} redirectTo={defaultAfterSignIn} />;
}
