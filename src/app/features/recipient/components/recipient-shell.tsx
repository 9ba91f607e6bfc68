import type { ReactNode } from 'react';
import { LanguageMenu } from '../../../components/language-menu';
import { SkipLink } from '../../../components/layout/skip-link';
import { useIntl } from '../../../lib/intl';
import { Logo } from '../../../components/logo';
import { ThemeToggle } from '../../../components/theme-toggle';

/**
 * The frame of a recipient's page: the brand and the theme switch, nothing that leads into the
 * dashboard (a recipient has no account here). `wide` for a collection's file browser; the footer
 * says what the page is for.
 */
export function RecipientShell({
  children,
  wide = false,
  footer,
}: {
  children: ReactNode;
  wide?: boolean;
  footer?: ReactNode;
}) {
  const intl = useIntl();
  const width = wide ? 'max-w-5xl' : 'max-w-3xl';
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <SkipLink />
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className={`mx-auto flex h-14 ${width} items-center justify-between gap-2 px-4`}>
          <Logo />
          <div className="flex items-center gap-1">
            <LanguageMenu />
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className={`mx-auto w-full ${width} flex-1 px-4 py-6 focus:outline-none sm:py-10`}>
        {children}
      </main>
      <footer className="px-4 py-6 text-center text-xs text-zinc-600 dark:text-zinc-400">
        {footer ??
          intl.formatMessage({
            id: 'recipient.footer',
            defaultMessage: 'Files are sent with Parcel. Downloads resume in your browser if the connection drops.',
          })}
      </footer>
    </div>
  );
}
