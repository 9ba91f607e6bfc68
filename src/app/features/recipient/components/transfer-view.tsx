import type { ReactNode } from 'react';
import { nameInSentence, SEPARATOR } from '../../../components/glyphs';
import { formatBytes } from '../../../lib/format';

const SPACE = ' ';
const folderPath = (path: string) => `${path}/`;
import { useIntl } from '../../../lib/intl';
import { DateTimeText, RelativeTimeText } from '../../../lib/server-render';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { fileKind, fileTypeLabel } from '../utils/file-kind';
import { FileIcon } from './file-icon';
import { PreviewGrid } from './previews';

/**
 * A transfer as its recipient sees it, whoever made the words: the server (a plain transfer) or this browser,
 * opening sealed values (an end-to-end encrypted one). How a file is downloaded is the caller's: a signed link
 * for a plain transfer, a decrypting button for an encrypted one.
 */

/** A file as the page shows it. `sizeBytes` is what the recipient gets (the plaintext size when encrypted). */
export interface ShownFile {
  id: string;
  name: string;
  path: string | null;
  sizeBytes: number;
  mimeType: string;
  /** A preview image: the server's signed URL, or an object URL of a decrypted thumbnail. */
  thumbnailUrl: string | null;
}

export interface ShownTransfer {
  title: string | null;
  message: string | null;
  workspaceName: string;
  expiresAt: string;
  totalBytes: number;
  files: ShownFile[];
}

/** Where a file's download control sits: its row of the file list, or the preview lightbox. */
export type FileActionPlace = 'row' | 'preview';

export function TransferView<F extends ShownFile>({
  transfer,
  notices,
  mainAction,
  fileAction,
  sourceOf,
  note,
}: {
  transfer: Omit<ShownTransfer, 'files'> & { files: F[] };
  /** Alerts and statuses above the main action (a failed session, files being scanned, a refused list). */
  notices?: ReactNode;
  /** The big download button (one file, or all of them); null when there is none. */
  mainAction: ReactNode;
  fileAction: (file: F, place: FileActionPlace) => ReactNode;
  /** A link to a file's bytes, for the lightbox to play or show it; absent where only images are previewed (an encrypted transfer). */
  sourceOf?: (file: F) => Promise<string>;
  /** A line under the facts (e.g. that the files are decrypted here). */
  note?: ReactNode;
}) {
  const intl = useIntl();
  const count = transfer.files.length;
  const countLabel = intl.formatMessage({ id: 'transfer.fileCount', defaultMessage: '{count, plural, one {# file} other {# files}}' }, { count });
  const heading =
    transfer.title?.trim() ||
    intl.formatMessage({ id: 'transfer.untitledHeading', defaultMessage: '{count, plural, one {# file} other {# files}} from {sender}' }, { count, sender: transfer.workspaceName });
  useDocumentTitle(heading);

  return (
    <div className="space-y-6">
      <section aria-labelledby="transfer-title" className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            { id: 'transfer.sentYou', defaultMessage: '{sender} sent you {count, plural, one {# file} other {# files}}' },
            {
              count,
              sender: nameInSentence('sender', transfer.workspaceName),
            },
          )}
        </p>
        <h1 id="transfer-title" className="mt-2 text-2xl font-semibold tracking-tight break-words text-zinc-900 sm:text-3xl dark:text-zinc-50">
          {heading}
        </h1>
        {transfer.message ? <p className="mt-4 whitespace-pre-line break-words text-zinc-800 dark:text-zinc-200">{transfer.message}</p> : null}
        <dl className="mt-6 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'transfer.totalSize', defaultMessage: 'Total size' })}</dt>
            <dd className="font-medium text-zinc-900 dark:text-zinc-100">{formatBytes(transfer.totalBytes)}</dd>
          </div>
          <div>
            <dt className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'transfer.availableUntil', defaultMessage: 'Available until' })}</dt>
            <dd className="font-medium text-zinc-900 dark:text-zinc-100">
              <time dateTime={transfer.expiresAt}>
                <DateTimeText iso={transfer.expiresAt} />
              </time>
              {SPACE}
              <span className="font-normal text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage({ id: 'transfer.expiresIn', defaultMessage: '(expires {when})' }, { when: <RelativeTimeText key="when" iso={transfer.expiresAt} /> })}
              </span>
            </dd>
          </div>
        </dl>
        {note}

        <div className="mt-6">
          {notices}
          {count === 0 ? (
            <p className="text-zinc-700 dark:text-zinc-300">
              {intl.formatMessage({ id: 'transfer.noFilesYet', defaultMessage: 'There are no files to download in this transfer yet.' })}
            </p>
          ) : (
            mainAction
          )}
        </div>
      </section>

      <PreviewGrid<F> files={transfer.files} action={(file) => fileAction(file, 'preview')} sourceOf={sourceOf} />

      {count > 0 ? (
        <section aria-labelledby="files-title">
          <div className="flex flex-wrap items-baseline justify-between gap-2 px-1">
            <h2 id="files-title" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
              {intl.formatMessage({ id: 'transfer.files', defaultMessage: 'Files' })}
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {countLabel}
              {SEPARATOR}
              {formatBytes(transfer.totalBytes)}
            </p>
          </div>
          <ul className="mt-3 divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {transfer.files.map((file) => (
              <FileRow key={file.id} file={file} action={fileAction(file, 'row')} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function FileRow({ file, action }: { file: ShownFile; action: ReactNode }) {
  const intl = useIntl();
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <FileIcon kind={fileKind(file.mimeType, file.name)} />
        <div className="min-w-0">
          <p className="font-medium break-all text-zinc-900 dark:text-zinc-100">
            <bdi>{file.name}</bdi>
          </p>
          {file.path ? (
            <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">
              <span className="sr-only">{intl.formatMessage({ id: 'transfer.folderPrefix', defaultMessage: 'Folder:' })} </span>
              <bdi>{folderPath(file.path)}</bdi>
            </p>
          ) : null}
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {fileTypeLabel(file.mimeType, file.name, intl)}
            {SEPARATOR}
            {formatBytes(file.sizeBytes)}
          </p>
        </div>
      </div>
      {action}
    </li>
  );
}

export function DownloadGlyph() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M10 3v10m0 0-4-4m4 4 4-4M4 16.5h12" />
    </svg>
  );
}
