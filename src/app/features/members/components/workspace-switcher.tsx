import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Session } from '../../../../contract/dashboard';
import type { WorkspaceChoice } from '../../../../contract/members';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { useSwitchWorkspace, useWorkspaceChoices } from '../api/members';

/** The person's role in a workspace of the list, in lower case beside its name. */
function roleInList(role: WorkspaceChoice['role'], intl: IntlShape): string {
  switch (role) {
    case 'owner':
      return intl.formatMessage({ id: 'members.switcher.roleOwner', defaultMessage: 'owner' });
    case 'admin':
      return intl.formatMessage({ id: 'members.switcher.roleAdmin', defaultMessage: 'admin' });
    case 'member':
      return intl.formatMessage({ id: 'members.switcher.roleMember', defaultMessage: 'member' });
  }
}

/** The words of the header only screen readers hear, around the workspace's name. */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/**
 * The current workspace's name in the header; for a person in several workspaces, a disclosure
 * listing them, each a button that moves the session there (and to its transfers).
 */
export function WorkspaceSwitcher({ session }: { session: Session }) {
  const intl = useIntl();
  const choices = useWorkspaceChoices();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const name = (
    <bdi key="name" className="truncate font-medium text-zinc-700 dark:text-zinc-300">
      {session.workspace.name}
    </bdi>
  );
  const others = (choices.data ?? []).filter((w) => w.id !== session.workspace.id);
  if (others.length === 0) {
    return (
      <p className="flex min-w-0 items-center">
        {intl.formatMessage({ id: 'members.switcher.current', defaultMessage: '<hidden>Workspace: </hidden>{name}' }, { hidden, name })}
      </p>
    );
  }
  return (
    <div className="relative min-w-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="flex min-w-0 items-center gap-1 rounded-md px-1.5 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        {intl.formatMessage({ id: 'members.switcher.switch', defaultMessage: '<hidden>Workspace: </hidden>{name}<hidden>, switch workspace</hidden>' }, { hidden, name })}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-500" fill="currentColor">
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </button>
      <div id={listId} hidden={!open} className="absolute start-0 z-20 mt-1 w-64 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <p className="px-2 py-1 text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'members.switcher.others', defaultMessage: 'Your other workspaces' })}
        </p>
        <ul>
          {others.map((w) => (
            <li key={w.id}>
              <button
                type="button"
                disabled={switchTo.isPending}
                onClick={() =>
                  switchTo.mutate(w.id, {
                    onSuccess: () => {
                      setOpen(false);
                      void navigate({ to: '/transfers' });
                    },
                  })
                }
                className="flex w-full items-baseline justify-between gap-2 rounded px-2 py-1.5 text-start text-sm hover:bg-zinc-100 disabled:opacity-60 dark:hover:bg-zinc-800"
              >
                <bdi className="truncate">{w.name}</bdi>
                <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">{roleInList(w.role, intl)}</span>
              </button>
            </li>
          ))}
        </ul>
        <FormError error={switchTo.error} className="m-1" />
      </div>
    </div>
  );
}
