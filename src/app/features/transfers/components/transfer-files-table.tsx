import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { defineMessages } from 'react-intl';
import type { TransferFile } from '../../../../contract/transfers';
import { Button } from '../../../components/button';
import { startDownload } from '../../../lib/start-download';
import { FileIcon, fileKind, Lightbox, previewKind, ThumbnailImage } from '../../recipient';
import { downloadLinksQueryOptions } from '../api/get-download-links';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { userDataRoot } from '../../../lib/query-keys';
import { stackedTable } from '../../../components/stacked-table';
import { Section } from '../../../components/section';
import { FormError } from '../../../components/form-error';
import { useImportStatuses, type ImportStatusResult, ImportProgressBar, receivedText } from '../../imports';
import { transferKeys } from '../api/query-keys';
import { useScanningEnabled } from '../../../lib/me';

const stateLabels = defineMessages<TransferFile['state']>({
  uploading: { id: 'transfers.files.state.uploading', defaultMessage: 'Uploading' },
  importing: { id: 'transfers.files.state.importing', defaultMessage: 'Importing' },
  complete: { id: 'transfers.files.state.complete', defaultMessage: 'Complete' },
  failed: { id: 'transfers.files.state.failed', defaultMessage: 'Failed' },
});

/** The scan cell: what the virus scan said, and for an infected file what it found (the owner's eyes only). */
function ScanResult({ file, scanning, sent }: { file: TransferFile; scanning: boolean; sent: boolean }) {
  const intl = useIntl();
  if (file.scanResult === 'clean') return intl.formatMessage({ id: 'transfers.files.scan.clean', defaultMessage: 'Clean' });
  if (file.scanResult === 'infected') {
    return (
      <div className="w-40 space-y-0.5">
        <p className="font-medium text-red-700 dark:text-red-400">{intl.formatMessage({ id: 'transfers.files.scan.infected', defaultMessage: 'Infected' })}</p>
        {file.scanSignature ? <p className="text-xs break-words text-red-700 dark:text-red-400">{file.scanSignature}</p> : null}
      </div>
    );
  }
  if (file.scanResult !== null) return file.scanResult;
  if (!scanning) {
    return (
      <span className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'transfers.files.scan.off', defaultMessage: 'Not scanned (scanning is off)' })}</span>
    );
  }
  // Each file is scanned as soon as it is complete, a draft's too.
  return file.state === 'complete'
    ? intl.formatMessage({ id: 'transfers.files.scan.checking', defaultMessage: 'Checking…' })
    : sent
      ? intl.formatMessage({ id: 'transfers.files.scan.notYet', defaultMessage: 'Not scanned yet' })
      : intl.formatMessage({ id: 'transfers.files.scan.onceUploaded', defaultMessage: 'Scanned once uploaded' });
}

const { headCell: th, cell: td } = stackedTable;

/** In a cell without a value (no folder, no checksum yet): a sign, not a word. */
const NO_VALUE = '—';

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
export function TransferFilesTable({
  files,
  sent,
  transferId,
  streamable,
}: {
  files: TransferFile[];
  sent: boolean;
  transferId: string;
  /** The caller may download the files (not a teammate's transfer, nor an encrypted one): players, PDFs and texts preview from their links. */
  streamable: boolean;
}) {
  const intl = useIntl();
  const importing = files.filter((file) => file.state === 'importing');
  const failed = files.filter((file) => file.state === 'failed');
  const statuses = useImportStatuses(importing.map((file) => file.id));
  const scanning = useScanningEnabled();
  useRefreshWhenImportsLand(importing, statuses);
  const previews = usePreviews(transferId, files, streamable);

  const description =
    importing.length > 0
      ? intl.formatMessage(
          {
            id: 'transfers.files.importing',
            defaultMessage:
              '{count, plural, one {# file is} other {# files are}} still being imported from a URL. Once the transfer is sent, its recipients are emailed when the last import finishes.',
          },
          { count: importing.length },
        )
      : failed.length > 0
        ? intl.formatMessage(
            {
              id: 'transfers.files.importFailed',
              defaultMessage:
                '{count, plural, one {# file} other {# files}} could not be imported from a URL: the State column says why. Recipients get the files that arrived.',
            },
            { count: failed.length },
          )
        : undefined;
  const columns = {
    name: intl.formatMessage({ id: 'transfers.files.column.name', defaultMessage: 'Name' }),
    path: intl.formatMessage({ id: 'transfers.files.column.path', defaultMessage: 'Path' }),
    size: intl.formatMessage({ id: 'transfers.files.column.size', defaultMessage: 'Size' }),
    type: intl.formatMessage({ id: 'transfers.files.column.type', defaultMessage: 'Type' }),
    scan: intl.formatMessage({ id: 'transfers.files.column.scan', defaultMessage: 'Scan' }),
    crc: intl.formatMessage({ id: 'transfers.files.column.crc', defaultMessage: 'CRC-32' }),
    state: intl.formatMessage({ id: 'transfers.files.column.state', defaultMessage: 'State' }),
  };

  return (
    <Section title={intl.formatMessage({ id: 'transfers.files.title', defaultMessage: 'Files' })} description={description}>
      {files.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'transfers.files.none', defaultMessage: 'This transfer has no files.' })}</p>
      ) : (
        <div
          className={stackedTable.wrapper}
          tabIndex={0}
          role="group"
          aria-label={intl.formatMessage({ id: 'transfers.files.tableLabel', defaultMessage: 'Files (scrolls sideways)' })}
        >
          <table className={stackedTable.table('sm:min-w-[48rem]')}>
            <thead className={stackedTable.head}>
              <tr>
                <th scope="col" className={`${th} ps-5`}>
                  {columns.name}
                </th>
                <th scope="col" className={th}>
                  {columns.path}
                </th>
                <th scope="col" className={`${th} text-end`}>
                  {columns.size}
                </th>
                <th scope="col" className={th}>
                  {columns.type}
                </th>
                <th scope="col" className={th}>
                  {columns.scan}
                </th>
                <th scope="col" className={th}>
                  {columns.crc}
                </th>
                <th scope="col" className={`${th} pe-5`}>
                  {columns.state}
                </th>
              </tr>
            </thead>
            <tbody className={stackedTable.body}>
              {files.map((file) => (
                <tr key={file.id} className={stackedTable.row}>
                  {/* Named by the file alone: the preview button inside it has a name of its own. */}
                  <th scope="row" aria-label={file.name} className={`${stackedTable.rowHeader} sm:min-w-52`}>
                    <span className="flex items-center gap-3">
                      <FileVisual file={file} onOpen={previews.canOpen(file) ? () => previews.open(file.id) : undefined} />
                      <span className="min-w-0">{file.name}</span>
                    </span>
                  </th>
                  <td data-label={columns.path} className={`${td} break-all text-zinc-600 dark:text-zinc-400`}>
                    {file.path ?? NO_VALUE}
                  </td>
                  <td data-label={columns.size} className={`${td} text-end whitespace-nowrap max-sm:text-start`}>
                    {formatBytes(file.sizeBytes)}
                  </td>
                  <td data-label={columns.type} className={`${td} break-all`}>
                    {file.mimeType}
                  </td>
                  <td data-label={columns.scan} className={td}>
                    <ScanResult file={file} scanning={scanning} sent={sent} />
                  </td>
                  <td data-label={columns.crc} className={`${td} font-mono`}>
                    {file.crc32 ?? NO_VALUE}
                  </td>
                  <td data-label={columns.state} className={`${td} ${stackedTable.lastCell}`}>
                    <FileState file={file} status={statuses.get(file.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {previews.lightbox}
    </Section>
  );
}

/**
 * The lightbox of the recipient's page over the transfer's files that have a preview: an image's, a poster, a PDF's
 * first page, and with `streamable` a player, the PDF viewer or a text, read from the owner's own signed links
 * (fetched when a file is opened, as they expire; an owner's download creates no receipt and counts nothing).
 */
function usePreviews(transferId: string, files: TransferFile[], streamable: boolean) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const previewable = useMemo(
    () =>
      files
        .filter((f) => f.state === 'complete' && f.scanResult !== 'infected')
        .map((f) => ({ ...f, thumbnailUrl: f.thumbnailUrl ?? null }))
        .filter((f) => previewKind(f, streamable) !== null),
    [files, streamable],
  );
  const [previewing, setPreviewing] = useState<string | null>(null);
  const index = previewing === null ? -1 : previewable.findIndex((f) => f.id === previewing);
  const linkOf = useCallback(
    async (file: { id: string }) => {
      const links = await queryClient.fetchQuery(downloadLinksQueryOptions(transferId));
      const url = links.files.find((f) => f.fileId === file.id)?.url;
      if (!url) throw new Error(intl.formatMessage({ id: 'transfers.files.cannotDownload', defaultMessage: 'This file cannot be downloaded now.' }));
      return url;
    },
    [queryClient, transferId, intl],
  );
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const lightbox =
    index >= 0 ? (
      <Lightbox
        files={previewable}
        index={index}
        onIndex={(i) => {
          setDownloadError(null);
          setPreviewing(previewable[i]?.id ?? null);
        }}
        onClose={() => setPreviewing(null)}
        sourceOf={streamable ? linkOf : undefined}
        action={
          streamable
            ? (file) => (
                <span className="flex flex-col items-end gap-1">
                  <Button onClick={() => void linkOf(file).then(startDownload, setDownloadError)}>
                    {intl.formatMessage(
                      { id: 'transfers.files.download', defaultMessage: 'Download<hidden> {name}</hidden>' },
                      {
                        hidden: (chunks: ReactNode[]) => (
                          <span key="hidden" className="sr-only">
                            {chunks}
                          </span>
                        ),
                        name: <bdi key="name">{file.name}</bdi>,
                      },
                    )}
                  </Button>
                  <FormError error={downloadError} />
                </span>
              )
            : undefined
        }
      />
    ) : null;
  const openable = useMemo(() => new Set(previewable.map((f) => f.id)), [previewable]);
  return { canOpen: (file: TransferFile) => openable.has(file.id), open: setPreviewing, lightbox };
}

/** A file's thumbnail (opening its preview) or its kind's icon; decorative beside the name, which the button's label repeats. */
function FileVisual({ file, onOpen }: { file: TransferFile; onOpen: (() => void) | undefined }) {
  const intl = useIntl();
  const visual = file.thumbnailUrl ? (
    <ThumbnailImage file={file} className="size-10 shrink-0 rounded-md ring-1 ring-zinc-200 dark:ring-zinc-700" />
  ) : (
    <span className="flex size-10 shrink-0 items-center justify-center [&>span]:size-10">
      <FileIcon kind={fileKind(file.mimeType, file.name)} />
    </span>
  );
  if (!onOpen) return visual;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={intl.formatMessage({ id: 'transfers.files.preview', defaultMessage: 'Preview {name}' }, { name: file.name })}
      className="shrink-0 rounded-md hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      {visual}
    </button>
  );
}

/** The state cell: the label, and for an import how far it is or why it failed (text from the server, shown as text). */
function FileState({ file, status }: { file: TransferFile; status: ImportStatusResult | undefined }) {
  const intl = useIntl();
  const descriptor = stateLabels[file.state] as (typeof stateLabels)[TransferFile['state']] | undefined;
  const label = descriptor ? intl.formatMessage(descriptor) : file.state;
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
      <ImportProgressBar
        status={running}
        label={intl.formatMessage({ id: 'transfers.files.importingName', defaultMessage: 'Importing {name}' }, { name: file.name })}
      />
    </div>
  );
}
