import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { defineMessages } from 'react-intl';
import { useIntl } from '../../lib/intl';
import { PlanBadge } from '../badge';
import { Logo } from '../logo';
import { ThemeToggle } from '../theme-toggle';
import { SkipLink } from './skip-link';

/** `admins`: the pages of the owner's and admins' business, left out of a member's menu (the server refuses them anyway). */
const labels = defineMessages({
  transfers: { id: 'common.appShell.nav.transfers', defaultMessage: 'Transfers' },
  collections: { id: 'common.appShell.nav.collections', defaultMessage: 'Collections' },
  requests: { id: 'common.appShell.nav.requests', defaultMessage: 'Requests' },
  vault: { id: 'common.appShell.nav.vault', defaultMessage: 'Vault' },
  contacts: { id: 'common.appShell.nav.contacts', defaultMessage: 'Contacts' },
  members: { id: 'common.appShell.nav.members', defaultMessage: 'Members' },
  activity: { id: 'common.appShell.nav.activity', defaultMessage: 'Activity' },
  webhooks: { id: 'common.appShell.nav.webhooks', defaultMessage: 'Webhooks' },
  keys: { id: 'common.appShell.nav.keys', defaultMessage: 'API keys' },
  settings: { id: 'common.appShell.nav.settings', defaultMessage: 'Settings' },
  admin: { id: 'common.appShell.nav.admin', defaultMessage: 'Admin' },
});

const navigation = [
  { to: '/transfers', label: labels.transfers },
  { to: '/collections', label: labels.collections },
  { to: '/requests', label: labels.requests },
  { to: '/vault', label: labels.vault },
  { to: '/contacts', label: labels.contacts },
  { to: '/members', label: labels.members },
  { to: '/activity', label: labels.activity, admins: true },
  { to: '/webhooks', label: labels.webhooks, admins: true },
  { to: '/keys', label: labels.keys, admins: true },
  { to: '/settings', label: labels.settings },
  { to: '/admin', label: labels.admin, operator: true },
] as const;

/** Between the logo and the workspace's name: a sign, not a word (hidden from screen readers). */
const LOGO_SEPARATOR = '/';

const navLinkClass =
  'block rounded-md px-3 py-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 data-[status=active]:bg-indigo-50 data-[status=active]:text-indigo-700 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white dark:data-[status=active]:bg-indigo-950 dark:data-[status=active]:text-indigo-300';

interface AppShellProps {
  /** The current workspace: its name, or the switcher for a person in several. */
  workspace: ReactNode;
  /** The server's operator also gets the Admin page. */
  isOperator?: boolean;
  /** A member's menu leaves out the owner's and admins' pages. */
  role: 'owner' | 'admin' | 'member';
  /** The badge next to the workspace's name; null on a server that bills nobody, where plans mean nothing. */
  plan: 'free' | 'paid' | null;
  /** The sign-out control; the shell knows nothing about sessions. */
  signOut: ReactNode;
  children: ReactNode;
}

/** The signed-in frame: header, main navigation (a menu on narrow screens) and the page. */
export function AppShell({ workspace, isOperator = false, role, plan, signOut, children }: AppShellProps) {
  const intl = useIntl();
  const [menuOpen, setMenuOpen] = useState(false);
  const items = navigation.filter((item) => (!('operator' in item) || isOperator) && (!('admins' in item) || role !== 'member'));
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
          <Link to="/transfers" className="shrink-0 rounded-md">
            <Logo />
          </Link>
          <span aria-hidden="true" className="hidden text-zinc-300 sm:inline dark:text-zinc-700">
            {LOGO_SEPARATOR}
          </span>
          <div className="flex min-w-0 items-center gap-2 text-sm">
            {workspace}
            {plan ? (
              <span>
                <span className="sr-only">{intl.formatMessage({ id: 'common.appShell.plan', defaultMessage: 'Plan:' })}</span>
                <PlanBadge plan={plan} />
              </span>
            ) : null}
          </div>
          <button
            type="button"
            className="ms-auto inline-flex h-9 shrink-0 items-center gap-1 rounded-md px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 md:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
            aria-expanded={menuOpen}
            aria-controls="main-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path strokeLinecap="round" d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} />
            </svg>
            {intl.formatMessage({ id: 'common.appShell.menu', defaultMessage: 'Menu' })}
          </button>
        </div>
        {/* One copy of the navigation and the account controls: a second row on wide screens, the menu on narrow ones. */}
        <div
          id="main-menu"
          className={`${menuOpen ? 'block' : 'hidden'} border-t border-zinc-200 md:block dark:border-zinc-800`}
        >
          <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-2 md:flex-row md:items-center">
            <nav aria-label={intl.formatMessage({ id: 'common.appShell.navLabel', defaultMessage: 'Main' })} className="min-w-0 flex-1">
              <ul className="flex flex-col gap-1 md:flex-row md:flex-wrap">
                {items.map((item) => (
                  <li key={item.to}>
                    <Link to={item.to} className={navLinkClass} onClick={() => setMenuOpen(false)}>
                      {intl.formatMessage(item.label)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="flex items-center gap-1 border-t border-zinc-200 pt-2 md:border-0 md:pt-0 dark:border-zinc-800">
              <ThemeToggle />
              {signOut}
            </div>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
