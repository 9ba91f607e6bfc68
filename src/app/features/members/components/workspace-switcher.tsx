import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Session } from '../../../../contract/dashboard';
import { FormError } from '../../../components/form-error';
import { useSwitchWorkspace, useWorkspaceChoices } from '../api/members';

/**
 * The current workspace's name in the header; for a person in several workspaces, a disclosure
 * listing them, each a button that moves the session there (and to its transfers).
 */
export function WorkspaceSwitcher({ session }: { session: Session }) {
  const choices = useWorkspaceChoices();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const name = <span className="truncate font-medium text-zinc-700 dark:text-zinc-300">{session.workspace.name}</span>;
  const others = (choices.data ?? []).filter((w) => w.id !== session.workspace.id);
  if (others.length === 0) {
    return (
      <p className="flex min-w-0 items-center">
        <span className="sr-only">Workspace: </span>
        {name}
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
        <span className="sr-only">Workspace: </span>
        {name}
        <span className="sr-only">, switch workspace</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-500" fill="currentColor">
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </button>
      <div id={listId} hidden={!open} className="absolute left-0 z-20 mt-1 w-64 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <p className="px-2 py-1 text-xs text-zinc-600 dark:text-zinc-400">Your other workspaces</p>
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
                className="flex w-full items-baseline justify-between gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-zinc-100 disabled:opacity-60 dark:hover:bg-zinc-800"
              >
                <span className="truncate">{w.name}</span>
                <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">{w.role}</span>
              </button>
            </li>
          ))}
        </ul>
        <FormError error={switchTo.error} className="m-1" />
      </div>
    </div>
  );
}
