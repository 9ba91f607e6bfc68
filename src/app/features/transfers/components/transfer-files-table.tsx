import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TransferFile } from '../../../../contract/transfers';
import { formatBytes, plural } from '../../../lib/format';
import { userDataRoot } from '../../../lib/query-keys';
import { stackedTable } from '../../../components/stacked-table';
import { Section } from '../../../components/section';
import { useImportStatuses, type ImportStatusResult, ImportProgressBar, receivedText } from '../../imports';
import { transferKeys } from '../api/query-keys';
import { useScanningEnabled } from '../../../lib/me';

const stateLabels: Record<TransferFile['state'], string> = {
  uploading: 'Uploading',
  importing: 'Importing',
  complete: 'Complete',
  failed: 'Failed',
};

/** The scan cell: what the virus scan said, and for an infected file what it found (the owner's eyes only). */
function ScanResult({ file, scanning, sent }: { file: TransferFile; scanning: boolean; sent: boolean }) {
  if (file.scanResult === 'clean') return 'Clean';
  if (file.scanResult === 'infected') {
    return (
      <div className="w-40 space-y-0.5">
        <p className="font-medium text-red-700 dark:text-red-400">Infected</p>
        {file.scanSignature ? <p className="text-xs break-words text-red-700 dark:text-red-400">{file.scanSignature}</p> : null}
      </div>
    );
  }
  if (file.scanResult !== null) return file.scanResult;
  if (!scanning) return <span className="text-zinc-600 dark:text-zinc-400">Not scanned (scanning is off)</span>;
  // Each file is scanned as soon as it is complete, a draft's too.
  return file.state === 'complete' ? 'Checking…' : sent ? 'Not scanned yet' : 'Scanned once uploaded';
}

const { headCell: th, cell: td } = stackedTable;

/**
 * Every transfer's page, whatever its id: the table is given the files alone. When an import lands
 * the transfer's file (its state, size and CRC) and its size in the lists change.
 */
const transferDetailsRoot = [...userDataRoot, 'v1', 'transfers', 'detail'] as const;

/** Reads the transfer again once an import it lists as running has settled (the status is polled; the transfer is not). */
function useRefreshWhenImportsLand(importing: TransferFile[], statuses: ReadonlyMap<string, ImportStatusResult>) {
  const queryClient = useQueryClient();
  const landed = importing
    .filter((file) => {
      const state = statuses.get(file.id)?.status?.status;
      return state === 'ready' || state === 'failed';
    })
    .map((file) => file.id)
    .join(' ');
  useEffect(() => {
    if (landed === '') return;
    void queryClient.invalidateQueries({ queryKey: transferDetailsRoot });
    void queryClient.invalidateQueries({ queryKey: transferKeys.lists });
  }, [landed, queryClient]);
}

/**
 * The transfer's files with their folder, size, type, scan and state. A file still imported from a
 * URL shows how far it is; one whose import failed says why, so the owner knows which one did not
 * arrive (the transfer went out without it).
 */
export function TransferFilesTable({ files, sent }: { files: TransferFile[]; sent: boolean }) {
  const importing = files.filter((file) => file.state === 'importing');
  const failed = files.filter((file) => file.state === 'failed');
  const statuses = useImportStatuses(importing.map((file) => file.id));
  const scanning = useScanningEnabled();
  useRefreshWhenImportsLand(importing, statuses);

  const description =
    importing.length > 0
      ? `${plural(importing.length, 'file is', 'files are')} still being imported from a URL. Once the transfer is sent, its recipients are emailed when the last import finishes.`
      : failed.length > 0
        ? `${plural(failed.length, 'file', 'files')} could not be imported from a URL: the State column says why. Recipients get the files that arrived.`
        : undefined;

  return (
    <Section title="Files" description={description}>
      {files.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">This transfer has no files.</p>
      ) : (
        <div className={stackedTable.wrapper} tabIndex={0} role="group" aria-label="Files (scrolls sideways)">
          <table className={stackedTable.table('sm:min-w-[44rem]')}>
            <thead className={stackedTable.head}>
              <tr>
                <th scope="col" className={`${th} pl-5`}>Name</th>
                <th scope="col" className={th}>Path</th>
                <th scope="col" className={`${th} text-right`}>Size</th>
                <th scope="col" className={th}>Type</th>
                <th scope="col" className={th}>Scan</th>
                <th scope="col" className={th}>CRC-32</th>
                <th scope="col" className={`${th} pr-5`}>State</th>
              </tr>
            </thead>
            <tbody className={stackedTable.body}>
              {files.map((file) => (
                <tr key={file.id} className={stackedTable.row}>
                  <th scope="row" className={stackedTable.rowHeader}>
                    {file.name}
                  </th>
                  <td data-label="Path" className={`${td} break-all text-zinc-600 dark:text-zinc-400`}>
                    {file.path ?? '—'}
                  </td>
                  <td data-label="Size" className={`${td} text-right whitespace-nowrap max-sm:text-left`}>
                    {formatBytes(file.sizeBytes)}
                  </td>
                  <td data-label="Type" className={`${td} break-all`}>
                    {file.mimeType}
                  </td>
                  <td data-label="Scan" className={td}>
                    <ScanResult file={file} scanning={scanning} sent={sent} />
                  </td>
                  <td data-label="CRC-32" className={`${td} font-mono`}>
                    {file.crc32 ?? '—'}
                  </td>
                  <td data-label="State" className={`${td} ${stackedTable.lastCell}`}>
                    <FileState file={file} status={statuses.get(file.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** The state cell: the label, and for an import how far it is or why it failed (text from the server, shown as text). */
function FileState({ file, status }: { file: TransferFile; status: ImportStatusResult | undefined }) {
  const label = stateLabels[file.state] ?? file.state;
  if (file.state === 'failed') {
    return (
      <div className="w-40 space-y-0.5">
        <p className="font-medium text-red-700 dark:text-red-400">{label}</p>
        {file.error ? <p className="text-xs break-words text-red-700 dark:text-red-400">{file.error}</p> : null}
      </div>
    );
  }
  const running = status?.status?.status === 'importing' ? status.status : undefined;
  if (file.state !== 'importing' || !running) return label;
  return (
    <div className="w-32 space-y-1">
      <p>{label}</p>
      <p className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">{receivedText(running)}</p>
      <ImportProgressBar status={running} label={`Importing ${file.name}`} />
    </div>
  );
}
