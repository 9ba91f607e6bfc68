import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { formatBytes } from '../../../lib/format';
import type { ImportStatus, ImportStatusResult } from '../api/import-status';

/** "1.2 MB of 3 MB", or what is known before the origin said how large the file is. */
export function receivedText(status: ImportStatus): string {
  if (status.size === null) return status.receivedBytes > 0 ? `${formatBytes(status.receivedBytes)} received` : 'Waiting for the other server…';
  return `${formatBytes(status.receivedBytes)} of ${formatBytes(status.size)}`;
}

/**
 * A running import's bar: how much of the file the service has stored. Before the origin told its
 * size there is no amount to show, and the bar is indeterminate (no `aria-valuenow`).
 */
export function ImportProgressBar({ status, label }: { status: ImportStatus; label: string }) {
  const percent = status.size === null ? null : status.size === 0 ? 100 : Math.min(100, Math.floor((status.receivedBytes / status.size) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={receivedText(status)}
      className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
    >
      <div
        className={`h-full rounded-full bg-indigo-600 transition-[width] duration-500 dark:bg-indigo-400 ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
        style={percent === null ? undefined : { width: `${Math.max(percent, 2)}%` }}
      />
    </div>
  );
}

interface ImportRowProps {
  /** The name it was registered with; the server's answer (the origin may name the file) replaces it. */
  name: string;
  /** Where it is fetched from; the server's answer says it too. */
  source?: string | null;
  /** Where it goes, when that is worth saying ("Into Shoot/Day 1"). */
  place?: ReactNode;
  query: ImportStatusResult;
  /** Takes the file back: offered once it is ready or failed (a running import is left to finish or fail). */
  onRemove?: () => void;
  removing?: boolean;
  removeError?: unknown;
}

/**
 * One URL import as a list item: its name and address, then a progress bar while the service
 * fetches it, "Ready" once stored, or why it failed with a way to remove it. What the server and
 * the origin said (names, addresses, errors) is shown as text, never as markup. A settled import is
 * announced through the row's own live region, which stays empty while it runs.
 */
export function ImportRow({ name, source, place, query, onRemove, removing = false, removeError }: ImportRowProps) {
  const errorId = useId();
  const { status } = query;
  const shownName = status?.name ?? name;
  const shownSource = status?.source ?? source ?? null;
  const announcement =
    status?.status === 'ready'
      ? `${shownName} is imported.`
      : status?.status === 'failed'
        ? `${shownName} could not be imported. ${status.error ?? ''}`.trim()
        : '';
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium break-all">{shownName}</p>
          {shownSource ? <p className="text-xs break-all text-zinc-600 dark:text-zinc-400">From {shownSource}</p> : null}
          {place ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{place}</p> : null}
        </div>
        {status?.status === 'ready' && onRemove ? (
          <div className="flex items-center gap-3 sm:shrink-0">
            <StateText query={query} />
            <Button variant="secondary" onClick={onRemove} disabled={removing} aria-label={`Remove ${shownName}`}>
              {removing ? 'Removing…' : 'Remove'}
            </Button>
          </div>
        ) : (
          <StateText query={query} />
        )}
      </div>
      {status?.status === 'importing' ? (
        <>
          <ImportProgressBar status={status} label={`Importing ${shownName}`} />
          {status.error ? (
            <p className="text-xs text-amber-800 dark:text-amber-300">
              The last attempt stopped ({status.error}); trying again, from where it stopped.
            </p>
          ) : null}
        </>
      ) : null}
      {status?.status === 'failed' ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p id={errorId} className="min-w-0 flex-1 text-sm break-words text-red-700 dark:text-red-400">
            {status.error ?? 'The import failed.'}
          </p>
          {onRemove ? (
            <Button variant="secondary" onClick={onRemove} disabled={removing} aria-label={`Remove ${shownName}`} aria-describedby={errorId}>
              {removing ? 'Removing…' : 'Remove'}
            </Button>
          ) : null}
        </div>
      ) : null}
      {status === undefined && query.error ? (
        <p className="text-sm text-red-700 dark:text-red-400">
          Could not check this import: {query.error instanceof Error ? query.error.message : 'something went wrong.'}
        </p>
      ) : null}
      <FormError error={removeError} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </li>
  );
}

function StateText({ query }: { query: ImportStatusResult }) {
  const { status } = query;
  if (status === undefined) {
    return <p className="text-sm text-zinc-600 sm:shrink-0 dark:text-zinc-400">{query.error ? 'Unknown' : 'Checking…'}</p>;
  }
  if (status.status === 'ready') {
    return <p className="text-sm font-medium text-emerald-700 sm:shrink-0 dark:text-emerald-400">Ready · {formatBytes(status.size ?? status.receivedBytes)}</p>;
  }
  if (status.status === 'failed') return <p className="text-sm font-medium text-red-700 sm:shrink-0 dark:text-red-400">Import failed</p>;
  return <p className="text-sm text-zinc-700 tabular-nums sm:shrink-0 dark:text-zinc-300">Importing · {receivedText(status)}</p>;
}
