import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useIntl } from '../../lib/intl';
import { Logo } from '../logo';
import { ThemeToggle } from '../theme-toggle';
import { SkipLink } from './skip-link';

/** The frame of the sign-in and sign-up pages: one narrow card in the middle. */
export function SignedOutShell({ children }: { children: ReactNode }) {
  const intl = useIntl();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="mx-auto flex w-full max-w-md items-center justify-between px-4 pt-8">
        <Logo />
        <ThemeToggle />
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-md flex-1 px-4 py-8 focus:outline-none">
        <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
          {children}
        </div>
      </main>
      <footer className="mx-auto w-full max-w-md px-4 pb-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
        <Link to="/docs/api" className="underline-offset-2 hover:underline">
          {intl.formatMessage({ id: 'common.signedOutShell.apiReference', defaultMessage: 'API reference' })}
        </Link>
      </footer>
    </div>
  );
}
