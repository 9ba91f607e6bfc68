import { useId, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { formatBytes } from '../../../lib/format';
import { currentIntl, useIntl } from '../../../lib/intl';
import type { ImportStatus, ImportStatusResult } from '../api/import-status';

/** "1.2 MB of 3 MB", or what is known before the origin said how large the file is. */
export function receivedText(status: ImportStatus, intl: IntlShape = currentIntl()): string {
  if (status.size === null)
    return status.receivedBytes > 0
      ? intl.formatMessage({ id: 'imports.progress.received', defaultMessage: '{received} received' }, { received: formatBytes(status.receivedBytes) })
      : intl.formatMessage({ id: 'imports.progress.waiting', defaultMessage: 'Waiting for the other server…' });
  return intl.formatMessage(
    { id: 'imports.progress.receivedOf', defaultMessage: '{received} of {size}' },
    { received: formatBytes(status.receivedBytes), size: formatBytes(status.size) },
  );
}

/**
 * A running import's bar: how much of the file the service has stored. Before the origin told its
 * size there is no amount to show, and the bar is indeterminate (no `aria-valuenow`).
 */
export function ImportProgressBar({ status, label }: { status: ImportStatus; label: string }) {
  const intl = useIntl();
  const percent = status.size === null ? null : status.size === 0 ? 100 : Math.min(100, Math.floor((status.receivedBytes / status.size) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={receivedText(status, intl)}
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
  const intl = useIntl();
  const errorId = useId();
  const { status } = query;
  const shownName = status?.name ?? name;
  const shownSource = status?.source ?? source ?? null;
  const announcement =
    status?.status === 'ready'
      ? intl.formatMessage({ id: 'imports.row.imported', defaultMessage: '{name} is imported.' }, { name: shownName })
      : status?.status === 'failed'
        ? status.error
          ? intl.formatMessage({ id: 'imports.row.failedBecause', defaultMessage: '{name} could not be imported. {problem}' }, { name: shownName, problem: status.error })
          : intl.formatMessage({ id: 'imports.row.failed', defaultMessage: '{name} could not be imported.' }, { name: shownName })
        : '';
  const removeName = intl.formatMessage({ id: 'imports.row.removeNamed', defaultMessage: 'Remove {name}' }, { name: shownName });
  const removeText = removing
    ? intl.formatMessage({ id: 'imports.row.removing', defaultMessage: 'Removing…' })
    : intl.formatMessage({ id: 'imports.row.remove', defaultMessage: 'Remove' });
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium break-all">{shownName}</p>
          {shownSource ? (
            <p className="text-xs break-all text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({ id: 'imports.row.from', defaultMessage: 'From {source}' }, { source: shownSource })}
            </p>
          ) : null}
          {place ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{place}</p> : null}
        </div>
        {status?.status === 'ready' && onRemove ? (
          <div className="flex items-center gap-3 sm:shrink-0">
            <StateText query={query} />
            <Button variant="secondary" onClick={onRemove} disabled={removing} aria-label={removeName}>
              {removeText}
            </Button>
          </div>
        ) : (
          <StateText query={query} />
        )}
      </div>
      {status?.status === 'importing' ? (
        <>
          <ImportProgressBar status={status} label={intl.formatMessage({ id: 'imports.row.importing', defaultMessage: 'Importing {name}' }, { name: shownName })} />
          {status.error ? (
            <p className="text-xs text-amber-800 dark:text-amber-300">
              {intl.formatMessage(
                { id: 'imports.row.retrying', defaultMessage: 'The last attempt stopped ({problem}); trying again, from where it stopped.' },
                { problem: <bdi key="problem">{status.error}</bdi> },
              )}
            </p>
          ) : null}
        </>
      ) : null}
      {status?.status === 'failed' ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p id={errorId} className="min-w-0 flex-1 text-sm break-words text-red-700 dark:text-red-400">
            {status.error ?? intl.formatMessage({ id: 'imports.row.importFailed', defaultMessage: 'The import failed.' })}
          </p>
          {onRemove ? (
            <Button variant="secondary" onClick={onRemove} disabled={removing} aria-label={removeName} aria-describedby={errorId}>
              {removeText}
            </Button>
          ) : null}
        </div>
      ) : null}
      {status === undefined && query.error ? (
        <p className="text-sm text-red-700 dark:text-red-400">
          {query.error instanceof Error
            ? intl.formatMessage({ id: 'imports.row.checkFailedBecause', defaultMessage: 'Could not check this import: {problem}' }, { problem: query.error.message })
            : intl.formatMessage({ id: 'imports.row.checkFailed', defaultMessage: 'Could not check this import: something went wrong.' })}
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
  const intl = useIntl();
  const { status } = query;
  if (status === undefined) {
    return (
      <p className="text-sm text-zinc-600 sm:shrink-0 dark:text-zinc-400">
        {query.error
          ? intl.formatMessage({ id: 'imports.state.unknown', defaultMessage: 'Unknown' })
          : intl.formatMessage({ id: 'imports.state.checking', defaultMessage: 'Checking…' })}
      </p>
    );
  }
  if (status.status === 'ready') {
    return (
      <p className="text-sm font-medium text-emerald-700 sm:shrink-0 dark:text-emerald-400">
        {intl.formatMessage({ id: 'imports.state.ready', defaultMessage: 'Ready · {size}' }, { size: formatBytes(status.size ?? status.receivedBytes) })}
      </p>
    );
  }
  if (status.status === 'failed')
    return (
      <p className="text-sm font-medium text-red-700 sm:shrink-0 dark:text-red-400">
        {intl.formatMessage({ id: 'imports.state.failed', defaultMessage: 'Import failed' })}
      </p>
    );
  return (
    <p className="text-sm text-zinc-700 tabular-nums sm:shrink-0 dark:text-zinc-300">
      {intl.formatMessage({ id: 'imports.state.importing', defaultMessage: 'Importing · {received}' }, { received: receivedText(status, intl) })}
    </p>
  );
}
