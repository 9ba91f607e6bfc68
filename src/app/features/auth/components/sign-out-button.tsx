import { useNavigate } from '@tanstack/react-router';
import { useIntl } from '../../../lib/intl';
import { useSignOut } from '../api/sign-out';

export function SignOutButton() {
  const intl = useIntl();
  const navigate = useNavigate();
  const signOut = useSignOut({ onSignedOut: () => navigate({ to: '/signin' }) });
  return (
    <>
      <button
        type="button"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
        className="inline-flex h-9 items-center rounded-md px-2.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 disabled:opacity-60 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        {signOut.isPending
          ? intl.formatMessage({ id: 'auth.signOut.signingOut', defaultMessage: 'Signing out…' })
          : intl.formatMessage({ id: 'auth.signOut.button', defaultMessage: 'Sign out' })}
      </button>
      {signOut.isError ? (
        <span role="alert" className="sr-only">
          {intl.formatMessage({ id: 'auth.signOut.failed', defaultMessage: 'Signing out failed: {reason}' }, { reason: signOut.error.message })}
        </span>
      ) : null}
    </>
  );
}
