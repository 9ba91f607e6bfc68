import { useNavigate } from '@tanstack/react-router';
import { useSignOut } from '../api/sign-out';

export function SignOutButton() {
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
        {signOut.isPending ? 'Signing out…' : 'Sign out'}
      </button>
      {signOut.isError ? (
        <span role="alert" className="sr-only">
          Signing out failed: {signOut.error.message}
        </span>
      ) : null}
    </>
  );
}
