import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Folder } from '../../../../contract/collections';
import type { PublicCollection, PublicCollectionFile } from '../../../../contract/public-collections';
import { Button, buttonClass } from '../../../components/button';
import { nameInSentence, SEPARATOR } from '../../../components/glyphs';
import { SkeletonList } from '../../../components/skeleton';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { collectionFilesQueryOptions } from '../api/public-collection-api';
import { useCollectionDownloads } from '../api/use-collection-downloads';
import { endsAccess } from '../api/use-collection-refusal';
import { COLLECTION_VIEW_KEY, storedCollectionView } from '../utils/collection-view';
import { folderTrail, subfoldersOf } from '../utils/folder-tree';
import { previewKind } from '../utils/file-kind';
import { DownloadFileLabel, DownloadGlyph, FileItems, FolderItems, type CollectionView } from './collection-items';
import { Lightbox } from './previews';
import { tooManyAttemptsMessage } from './status-pages';

// The uploader (Uppy) is for guests invited to contribute only: loaded for them, never with anyone else's page.
const GuestContributions = lazy(() => import('./guest-contributions'));
// A guest's review of a file (comments and decision): loaded when they open one.
const GuestReview = lazy(() => import('./guest-review'));

/** List or grid, remembered on this device (a visitor who likes thumbnails keeps them). */
function useCollectionView() {
  const [view, setView] = useState<CollectionView>(storedCollectionView);
  const choose = useCallback((next: CollectionView) => {
    setView(next);
    try {
      window.localStorage.setItem(COLLECTION_VIEW_KEY, next);
    } catch {
      // Storage refused (private mode): the choice lasts for this page.
    }
  }, []);
  return [view, choose] as const;
}

function problemMessage(error: unknown, intl: IntlShape): string {
  if (isApiRequestError(error) && error.status === 429) return tooManyAttemptsMessage(error, intl);
  return error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
}

/** Between the crumbs of the breadcrumb trail. */
const CRUMB_SEPARATOR = '/';

/** The part of a button's words only screen readers hear (the name of what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/** The lighter part of the download button: the zip's size. */
const muted = (chunks: ReactNode[]) => (
  <span key="muted" className="font-normal opacity-90">
    {chunks}
  </span>
);

interface CollectionBrowserProps {
  slug: string;
  collection: PublicCollection;
  unlockToken: string | null;
  folderId: string | undefined;
  onSignOut: () => void;
  signingOut: boolean;
}

/** A read-only file browser of the collection: its header, where the visitor is, and the folder's contents. */
export function CollectionBrowser({ slug, collection, unlockToken, folderId, onSignOut, signingOut }: CollectionBrowserProps) {
  const intl = useIntl();
  const trail = folderTrail(collection.folders, folderId);
  const current = trail?.at(-1);
  useDocumentTitle(current ? `${current.name}${SEPARATOR}${collection.title}` : collection.title);
  const downloads = useCollectionDownloads(slug, unlockToken);
  const [view, setView] = useCollectionView();

  // Moving into another folder announces where the visitor is now (the page itself does not reload).
  const locationHeading = useRef<HTMLHeadingElement>(null);
  const shownFolder = useRef(folderId);
  useEffect(() => {
    if (shownFolder.current === folderId) return;
    shownFolder.current = folderId;
    locationHeading.current?.focus();
  }, [folderId]);

  return (
    // Room below for the download bar pinned to a phone's screen.
    <div className="space-y-6 pb-24 sm:pb-0">
      {collection.access === 'guest' && collection.guestEmail ? (
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900">
          <p className="min-w-0 text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage(
              { id: 'collection.signedInAs', defaultMessage: 'Signed in as {email}' },
              {
                email: (
                  <bdi key="email" className="font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">
                    {collection.guestEmail}
                  </bdi>
                ),
              },
            )}
          </p>
          <Button variant="ghost" onClick={onSignOut} disabled={signingOut} className="min-h-11">
            {signingOut
              ? intl.formatMessage({ id: 'collection.signingOut', defaultMessage: 'Signing out…' })
              : intl.formatMessage({ id: 'collection.signOut', defaultMessage: 'Sign out' })}
          </Button>
        </div>
      ) : null}

      <CollectionHeader collection={collection} onDownloadAll={() => void downloads.downloadZip(undefined)} preparing={downloads.preparing === 'all'} />

      {collection.upload && trail !== null ? (
        <Suspense fallback={null}>
          <GuestContributions slug={slug} collection={collection} folderId={current?.id ?? null} />
        </Suspense>
      ) : null}

      {downloads.error ? (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200"
        >
          {intl.formatMessage(
            { id: 'collection.downloadNotStarted', defaultMessage: 'The download could not be started. {problem}' },
            { problem: problemMessage(downloads.error, intl) },
          )}
        </div>
      ) : null}

      <section aria-labelledby="location-title" className="space-y-4">
        {trail && trail.length > 0 ? <Breadcrumbs title={collection.title} trail={trail} /> : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2
            id="location-title"
            ref={locationHeading}
            tabIndex={-1}
            className="min-w-0 text-xl font-semibold wrap-anywhere text-zinc-900 focus:outline-none dark:text-zinc-50"
          >
            {trail === null
              ? intl.formatMessage({ id: 'collection.folderNotFound', defaultMessage: 'Folder not found' })
              : (current?.name ?? intl.formatMessage({ id: 'collection.filesAndFolders', defaultMessage: 'Files and folders' }))}
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            {current ? (
              <Button
                variant="secondary"
                onClick={() => void downloads.downloadZip(current.id)}
                disabled={downloads.preparing === current.id}
                aria-busy={downloads.preparing === current.id}
                className="min-h-11"
              >
                <DownloadGlyph />
                {downloads.preparing === current.id
                  ? intl.formatMessage(
                      { id: 'collection.preparingFolder', defaultMessage: 'Preparing…<hidden> {name}</hidden>' },
                      { name: <bdi key="name">{current.name}</bdi>, hidden },
                    )
                  : intl.formatMessage(
                      { id: 'collection.downloadFolder', defaultMessage: 'Download folder<hidden> {name}</hidden>' },
                      { name: <bdi key="name">{current.name}</bdi>, hidden },
                    )}
              </Button>
            ) : null}
            <ViewSwitch view={view} onChange={setView} />
          </div>
        </div>
        {trail === null ? (
          <div className="rounded-xl border border-zinc-200 bg-white p-6 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
            <p>
              {intl.formatMessage({
                id: 'collection.folderGone',
                defaultMessage: 'This folder is not in the collection any more. It may have been moved or deleted.',
              })}
            </p>
            <Link to="." search={{}} className={buttonClass('secondary', 'mt-4 min-h-11')}>
              {intl.formatMessage({ id: 'collection.backTo', defaultMessage: 'Back to {title}' }, { title: <bdi key="title">{collection.title}</bdi> })}
            </Link>
          </div>
        ) : (
          <FolderContents
            // A new folder starts with its own pages and no open preview.
            key={folderId ?? 'root'}
            slug={slug}
            unlockToken={unlockToken}
            folderId={current?.id}
            folders={subfoldersOf(collection.folders, current?.id ?? null)}
            view={view}
            downloads={downloads}
            canReview={collection.access === 'guest'}
          />
        )}
      </section>
    </div>
  );
}

function CollectionHeader({ collection, onDownloadAll, preparing }: { collection: PublicCollection; onDownloadAll: () => void; preparing: boolean }) {
  const intl = useIntl();
  const facts = [
    intl.formatMessage({ id: 'transfer.fileCount', defaultMessage: '{count, plural, one {# file} other {# files}}' }, { count: collection.fileCount }),
    formatBytes(collection.totalBytes),
  ];
  if (collection.folders.length > 0)
    facts.push(intl.formatMessage({ id: 'collection.folderCount', defaultMessage: '{count, plural, one {# folder} other {# folders}}' }, { count: collection.folders.length }));
  const zip = { size: formatBytes(collection.zip.sizeBytes), muted };
  return (
    <section
      aria-labelledby="collection-title"
      className="flex flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs sm:flex-row-reverse dark:border-zinc-800 dark:bg-zinc-900"
    >
      {collection.cover?.thumbnailUrl ? (
        // The server's preview is at most 480 px: a banner on a phone, a square beside the text on wider screens.
        <img src={collection.cover.thumbnailUrl} alt="" className="h-48 w-full object-cover sm:h-auto sm:w-56 sm:shrink-0 md:w-72" />
      ) : null}
      <div className="min-w-0 flex-1 p-5 sm:p-8">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            { id: 'collection.sharedBy', defaultMessage: 'Shared by {workspace}' },
            { workspace: nameInSentence('workspace', collection.workspaceName) },
          )}
        </p>
        <h1 id="collection-title" className="mt-2 text-2xl font-semibold tracking-tight break-words text-zinc-900 sm:text-3xl dark:text-zinc-50">
          {collection.title}
        </h1>
        {collection.description ? <p className="mt-4 break-words whitespace-pre-line text-zinc-800 dark:text-zinc-200">{collection.description}</p> : null}
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{facts.join(SEPARATOR)}</p>
        {collection.fileCount > 0 ? (
          // One button: pinned to the bottom of a phone's screen, in place from the small breakpoint up.
          <div className="fixed inset-x-0 bottom-0 z-10 border-t border-zinc-200 bg-white/95 p-3 backdrop-blur sm:static sm:z-auto sm:mt-6 sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none dark:border-zinc-800 dark:bg-zinc-900/95 sm:dark:bg-transparent">
            <Button onClick={onDownloadAll} disabled={preparing} aria-busy={preparing} className="min-h-12 w-full px-6 text-base sm:w-auto">
              <DownloadGlyph />
              {preparing
                ? intl.formatMessage({ id: 'collection.preparingAll', defaultMessage: 'Preparing… <muted>({size} zip)</muted>' }, zip)
                : intl.formatMessage({ id: 'collection.downloadAll', defaultMessage: 'Download all <muted>({size} zip)</muted>' }, zip)}
            </Button>
          </div>
        ) : (
          <p className="mt-6 text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage({ id: 'collection.noFilesYet', defaultMessage: 'There are no files in this collection yet.' })}
          </p>
        )}
      </div>
    </section>
  );
}

function Breadcrumbs({ title, trail }: { title: string; trail: Folder[] }) {
  const intl = useIntl();
  const crumb = 'inline-flex min-h-11 items-center rounded-md px-1 wrap-anywhere';
  return (
    <nav aria-label={intl.formatMessage({ id: 'collection.breadcrumb', defaultMessage: 'Breadcrumb' })}>
      <ol className="flex flex-wrap items-center gap-x-1 text-sm text-zinc-600 dark:text-zinc-400">
        <li className="flex items-center">
          {/* Exact: Link would otherwise mark itself the current page (its empty search is a subset of every folder's). */}
          <Link to="." search={{}} activeOptions={{ exact: true }} className={`${crumb} font-medium text-indigo-700 hover:underline dark:text-indigo-300`}>
            {title}
          </Link>
        </li>
        {trail.map((folder, i) => (
          <li key={folder.id} className="flex items-center gap-x-1">
            <span aria-hidden="true">{CRUMB_SEPARATOR}</span>
            {i === trail.length - 1 ? (
              <span aria-current="page" className={`${crumb} font-medium text-zinc-900 dark:text-zinc-100`}>
                {folder.name}
              </span>
            ) : (
              <Link to="." search={{ folder: folder.id }} className={`${crumb} font-medium text-indigo-700 hover:underline dark:text-indigo-300`}>
                {folder.name}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function ViewSwitch({ view, onChange }: { view: CollectionView; onChange: (view: CollectionView) => void }) {
  const intl = useIntl();
  const option = (value: CollectionView, label: string) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className="min-h-11 px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-100 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
    >
      {label}
    </button>
  );
  return (
    <div
      role="group"
      aria-label={intl.formatMessage({ id: 'collection.view', defaultMessage: 'View' })}
      className="inline-flex overflow-hidden rounded-md border border-zinc-300 dark:border-zinc-700"
    >
      {option('list', intl.formatMessage({ id: 'collection.viewList', defaultMessage: 'List' }))}
      {option('grid', intl.formatMessage({ id: 'collection.viewGrid', defaultMessage: 'Grid' }))}
    </div>
  );
}

interface FolderContentsProps {
  slug: string;
  unlockToken: string | null;
  folderId: string | undefined;
  folders: Folder[];
  view: CollectionView;
  downloads: ReturnType<typeof useCollectionDownloads>;
  /** A signed-in guest: each file opens its comments and decision. */
  canReview: boolean;
}

/** Folders first, then files a page at a time: the next page loads as the end of the list comes near (or on a button). */
function FolderContents({ slug, unlockToken, folderId, folders, view, downloads, canReview }: FolderContentsProps) {
  const intl = useIntl();
  const files = useInfiniteQuery(collectionFilesQueryOptions(slug, unlockToken, folderId));
  const pages = files.data?.pages;
  const loaded = useMemo(() => pages?.flatMap((page) => page.files) ?? [], [pages]);
  const previews = useMemo(() => loaded.filter((f) => previewKind(f, true) !== null), [loaded]);
  // By id, so a page loading meanwhile does not move the lightbox to another image.
  const [previewing, setPreviewing] = useState<string | null>(null);
  const previewIndex = previewing === null ? -1 : previews.findIndex((f) => f.id === previewing);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = files;
  const { downloadFile, downloadZip, preparing, fileLink } = downloads;
  const onPreview = useCallback((file: PublicCollectionFile) => setPreviewing(file.id), []);
  const onDownloadFile = useCallback((file: PublicCollectionFile) => void downloadFile(file), [downloadFile]);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const onReview = useCallback((file: PublicCollectionFile) => setReviewing(file.id), []);
  const reviewed = reviewing === null ? undefined : loaded.find((f) => f.id === reviewing);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = end.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const refused = files.error && isApiRequestError(files.error) && endsAccess(files.error, 'files');
  const empty = folders.length === 0 && files.isSuccess && loaded.length === 0;
  const heading = 'px-1 text-sm font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400';

  return (
    <div className="space-y-6">
      {folders.length > 0 ? (
        <div className="space-y-2">
          <h3 className={heading}>{intl.formatMessage({ id: 'collection.folders', defaultMessage: 'Folders' })}</h3>
          <FolderItems folders={folders} view={view} onDownload={(folder) => void downloadZip(folder.id)} preparing={preparing} />
        </div>
      ) : null}

      {files.isPending ? <SkeletonList label={intl.formatMessage({ id: 'collection.loadingFiles', defaultMessage: 'Loading files' })} rows={3} /> : null}
      {files.isError && !refused && loaded.length === 0 ? (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200"
        >
          <p>
            {intl.formatMessage(
              { id: 'collection.filesNotLoaded', defaultMessage: 'The files could not be loaded. {problem}' },
              { problem: problemMessage(files.error, intl) },
            )}
          </p>
          <Button variant="secondary" onClick={() => void files.refetch()} className="mt-2 min-h-11">
            {intl.formatMessage({ id: 'status.tryAgain', defaultMessage: 'Try again' })}
          </Button>
        </div>
      ) : null}
      {empty ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {folderId
            ? intl.formatMessage({ id: 'collection.folderEmpty', defaultMessage: 'This folder is empty.' })
            : intl.formatMessage({ id: 'collection.collectionEmpty', defaultMessage: 'This collection is empty.' })}
        </p>
      ) : null}

      {loaded.length > 0 ? (
        <div className="space-y-2">
          <h3 className={heading}>{intl.formatMessage({ id: 'transfer.files', defaultMessage: 'Files' })}</h3>
          <FileItems files={loaded} view={view} onPreview={onPreview} onDownload={onDownloadFile} onReview={canReview ? onReview : undefined} preparing={preparing} />
          {reviewed ? (
            <Suspense fallback={null}>
              <GuestReview slug={slug} file={reviewed} onClose={() => setReviewing(null)} />
            </Suspense>
          ) : null}
          <div ref={end} />
          {hasNextPage ? (
            <div className="flex justify-center pt-2">
              <Button variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage} className="min-h-11 px-5">
                {isFetchingNextPage
                  ? intl.formatMessage({ id: 'collection.loadingMoreFiles', defaultMessage: 'Loading more files…' })
                  : intl.formatMessage({ id: 'collection.loadMoreFiles', defaultMessage: 'Load more files' })}
              </Button>
            </div>
          ) : null}
          {files.isFetchNextPageError && !refused ? (
            <p role="alert" className="text-center text-sm text-red-700 dark:text-red-400">
              {intl.formatMessage(
                { id: 'collection.moreFilesNotLoaded', defaultMessage: 'More files could not be loaded. {problem}' },
                { problem: problemMessage(files.error, intl) },
              )}
            </p>
          ) : null}
        </div>
      ) : null}

      {previewIndex >= 0 ? (
        <Lightbox
          files={previews}
          index={previewIndex}
          onIndex={(index) => setPreviewing(previews[index]?.id ?? null)}
          onClose={() => setPreviewing(null)}
          sourceOf={fileLink}
          action={(file: PublicCollectionFile) => (
            <Button onClick={() => onDownloadFile(file)} disabled={preparing === file.id} className="min-h-11">
              <DownloadGlyph />
              <DownloadFileLabel name={file.name} />
            </Button>
          )}
        />
      ) : null}
    </div>
  );
}
