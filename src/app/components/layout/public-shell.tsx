import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useIntl } from '../../lib/intl';
import { Logo } from '../logo';
import { ThemeToggle } from '../theme-toggle';
import { SkipLink } from './skip-link';

const linkClass =
  'rounded-md px-2 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 data-[status=active]:text-indigo-700 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:data-[status=active]:text-indigo-300';

/** The frame of the public documentation pages. */
export function PublicShell({ children }: { children: ReactNode }) {
  const intl = useIntl();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4">
          <Link to="/" className="me-2 shrink-0 rounded-md">
            <Logo />
          </Link>
          <nav aria-label={intl.formatMessage({ id: 'common.publicShell.navLabel', defaultMessage: 'Documentation' })} className="flex min-w-0 items-center gap-1 overflow-x-auto">
            <Link to="/docs/api" className={linkClass}>
              {intl.formatMessage({ id: 'common.publicShell.apiReference', defaultMessage: 'API reference' })}
            </Link>
            <Link to="/docs/errors" className={linkClass}>
              {intl.formatMessage({ id: 'common.publicShell.errors', defaultMessage: 'Errors' })}
            </Link>
          </nav>
          <div className="ms-auto flex shrink-0 items-center gap-1">
            <ThemeToggle />
            <Link to="/" className={linkClass}>
              {intl.formatMessage({ id: 'common.publicShell.dashboard', defaultMessage: 'Dashboard' })}
            </Link>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
