import { Link } from '@tanstack/react-router';
import { memo, type ReactNode } from 'react';
import type { Folder } from '../../../../contract/collections';
import type { PublicCollectionFile } from '../../../../contract/public-collections';
import { Button } from '../../../components/button';
import { SEPARATOR } from '../../../components/glyphs';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { fileKind, fileTypeLabel, previewKind } from '../utils/file-kind';
import { ThumbnailImage } from './thumbnail-image';
import { FileIcon } from './file-icon';

export type CollectionView = 'list' | 'grid';

const listClass =
  'divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900';
const gridClass = 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4';
const tileClass = 'flex min-w-0 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900';

function FolderIcon() {
  return (
    <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      >
        <path d="M3 6.75A1.75 1.75 0 0 1 4.75 5h4.5l2 2.25h8a1.75 1.75 0 0 1 1.75 1.75v9.25A1.75 1.75 0 0 1 19.25 20H4.75A1.75 1.75 0 0 1 3 18.25z" />
      </svg>
    </span>
  );
}

export function DownloadGlyph() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 20 20"
      className="size-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M10 3v10m0 0-4-4m4 4 4-4M4 16.5h12" />
    </svg>
  );
}

/** The part of a download button's words only screen readers hear (the name of what it downloads). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/**
 * "Download" and, for screen readers, the file's name. `compact`: on a phone's list the icon alone leaves the name
 * room; the label is still read.
 */
export function DownloadFileLabel({ name, compact = false }: { name: string; compact?: boolean }) {
  const intl = useIntl();
  return intl.formatMessage(
    { id: 'collection.downloadFile', defaultMessage: '<label>Download</label><hidden> {name}</hidden>' },
    {
      name: <bdi key="name">{name}</bdi>,
      label: (chunks) => (
        <span key="label" className={compact ? 'sr-only sm:not-sr-only' : undefined}>
          {chunks}
        </span>
      ),
      hidden,
    },
  );
}

interface FolderItemsProps {
  folders: Folder[];
  view: CollectionView;
  onDownload: (folder: Folder) => void;
  preparing: string | null;
}

/** The folders inside the one being viewed: each opens as a link (so back and forward work) and downloads as a zip. */
export function FolderItems({ folders, view, onDownload, preparing }: FolderItemsProps) {
  const intl = useIntl();
  const download = (folder: Folder, extra: string) => (
    <Button
      variant="secondary"
      onClick={() => onDownload(folder)}
      disabled={preparing === folder.id}
      aria-busy={preparing === folder.id}
      className={`min-h-11 min-w-11 ${extra}`}
    >
      <DownloadGlyph />
      {/* On a phone's list the icon alone leaves the name room; the label is still read. */}
      {intl.formatMessage(
        { id: 'collection.downloadFolderItem', defaultMessage: '<label>Download</label><hidden> folder {name}</hidden>' },
        {
          name: <bdi key="name">{folder.name}</bdi>,
          label: (chunks) => (
            <span key="label" className={view === 'list' ? 'sr-only sm:not-sr-only' : undefined}>
              {chunks}
            </span>
          ),
          hidden,
        },
      )}
    </Button>
  );
  const label = intl.formatMessage({ id: 'collection.folders', defaultMessage: 'Folders' });
  if (view === 'grid') {
    return (
      <ul aria-label={label} className={gridClass}>
        {folders.map((folder) => (
          <li key={folder.id} className={tileClass}>
            <Link
              to="."
              search={{ folder: folder.id }}
              className="flex min-h-24 flex-1 flex-col items-start gap-3 p-3 hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
            >
              <FolderIcon />
              <span className="line-clamp-2 font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">{folder.name}</span>
            </Link>
            <div className="border-t border-zinc-200 p-2 dark:border-zinc-800">{download(folder, 'w-full')}</div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label={label} className={listClass}>
      {folders.map((folder) => (
        <li key={folder.id} className="flex items-center gap-2 p-2 sm:gap-3 sm:p-3">
          <Link
            to="."
            search={{ folder: folder.id }}
            className="flex min-h-11 min-w-0 flex-1 items-center gap-3 rounded-md p-1 hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
          >
            <FolderIcon />
            <span className="font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">{folder.name}</span>
          </Link>
          {download(folder, 'shrink-0')}
        </li>
      ))}
    </ul>
  );
}

interface FileItemsProps {
  files: PublicCollectionFile[];
  view: CollectionView;
  onPreview: (file: PublicCollectionFile) => void;
  onDownload: (file: PublicCollectionFile) => void;
  /** A guest's: opens a file's comments and decision. */
  onReview?: ((file: PublicCollectionFile) => void) | undefined;
  preparing: string | null;
}

/** The files directly in the folder being viewed: type and size, a preview for images, and a download each. */
export function FileItems({ files, view, onPreview, onDownload, onReview, preparing }: FileItemsProps) {
  const intl = useIntl();
  return (
    <ul aria-label={intl.formatMessage({ id: 'transfer.files', defaultMessage: 'Files' })} className={view === 'grid' ? gridClass : listClass}>
      {files.map((file) => (
        <FileItem key={file.id} file={file} view={view} preparing={preparing === file.id} onPreview={onPreview} onDownload={onDownload} onReview={onReview} />
      ))}
    </ul>
  );
}

interface FileItemProps {
  file: PublicCollectionFile;
  view: CollectionView;
  preparing: boolean;
  onPreview: (file: PublicCollectionFile) => void;
  onDownload: (file: PublicCollectionFile) => void;
  onReview?: ((file: PublicCollectionFile) => void) | undefined;
}

/** One file; memoised, so starting a download or loading the next page does not redraw thousands of rows. */
const FileItem = memo(function FileItem({ file, view, preparing, onPreview, onDownload, onReview }: FileItemProps) {
  const intl = useIntl();
  const facts = [fileTypeLabel(file.mimeType, file.name, intl), formatBytes(file.sizeBytes)];
  if (file.contributedBy)
    facts.push(intl.formatMessage({ id: 'collection.addedBy', defaultMessage: '{by, select, you {Added by you} other {Added by a guest}}' }, { by: file.contributedBy }));
  if (file.review)
    facts.push(
      intl.formatMessage({ id: 'collection.reviewState', defaultMessage: '{state, select, approved {Approved} other {Changes requested}}' }, { state: file.review.state }),
    );
  if (file.commentCount > 0)
    facts.push(intl.formatMessage({ id: 'collection.commentCount', defaultMessage: '{count, plural, one {# comment} other {# comments}}' }, { count: file.commentCount }));
  if (file.scanPending) facts.push(intl.formatMessage({ id: 'recipient.checking', defaultMessage: 'Checking for viruses…' }));
  const details = facts.join(SEPARATOR);
  const review = (extra: string) =>
    onReview ? (
      <Button variant="ghost" onClick={() => onReview(file)} className={`min-h-11 ${extra}`}>
        {intl.formatMessage({ id: 'collection.review', defaultMessage: 'Review<hidden> {name}</hidden>' }, { name: <bdi key="name">{file.name}</bdi>, hidden })}
      </Button>
    ) : null;
  // A file being checked for viruses cannot be downloaded yet (the server refuses until it is clean); the page asks again every few seconds.
  const download = (extra: string) => (
    <Button
      variant="secondary"
      onClick={() => onDownload(file)}
      disabled={preparing || file.scanPending}
      aria-busy={preparing}
      className={`min-h-11 min-w-11 ${extra}`}
    >
      <DownloadGlyph />
      <DownloadFileLabel name={file.name} compact={view === 'list'} />
    </Button>
  );
  // By its thumbnail (an image's, a video's poster, a PDF's first page, a sound's waveform), else its type's icon; opening the same lightbox.
  const preview = (className: string) =>
    previewKind(file, true) !== null ? (
      <button type="button" onClick={() => onPreview(file)} aria-label={intl.formatMessage({ id: 'collection.preview', defaultMessage: 'Preview {name}' }, { name: file.name })} className={className}>
        {file.thumbnailUrl ? (
          <ThumbnailImage file={file} />
        ) : (
          <span className="flex size-full items-center justify-center">
            <FileIcon kind={fileKind(file.mimeType, file.name)} />
          </span>
        )}
      </button>
    ) : null;

  if (view === 'grid') {
    return (
      <li className={tileClass}>
        {preview('block aspect-square w-full overflow-hidden bg-zinc-100 hover:opacity-90 dark:bg-zinc-800') ?? (
          <div className="flex aspect-square w-full items-center justify-center bg-zinc-50 dark:bg-zinc-800/50">
            <FileIcon kind={fileKind(file.mimeType, file.name)} />
          </div>
        )}
        <div className="flex flex-1 flex-col gap-2 p-2">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100" title={file.name}>
              {file.name}
            </p>
            <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{details}</p>
          </div>
          {review('w-full')}
          {download('w-full')}
        </div>
      </li>
    );
  }
  return (
    <li className="flex items-center gap-2 p-2 sm:gap-3 sm:p-3">
      {preview('size-11 shrink-0 overflow-hidden rounded-lg bg-zinc-100 hover:opacity-90 dark:bg-zinc-800') ?? (
        <FileIcon kind={fileKind(file.mimeType, file.name)} />
      )}
      <div className="min-w-0 flex-1 px-1">
        <p className="font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">{file.name}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{details}</p>
      </div>
      {review('shrink-0')}
      {download('shrink-0')}
    </li>
  );
});
