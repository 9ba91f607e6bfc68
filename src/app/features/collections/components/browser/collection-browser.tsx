import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { TrashDialog } from './trash-dialog';
import { OwnerReview } from './owner-review';
import { inputClass } from '../../../../components/text-field';
import { FormError } from '../../../../components/form-error';
import { PageHeader } from '../../../../components/page-header';
import type { FileUploaderHandle } from '../../../../components/uploader/file-uploader';
import { formatBytes } from '../../../../lib/format';
import { useIntl } from '../../../../lib/intl';
import { useCollection } from '../../api/get-collection';
import { collectionDownloadLinksQueryOptions } from '../../api/get-collection-download-links';
import { useCollectionFiles } from '../../api/get-collection-files';
import { useFolders } from '../../api/get-folders';
import { useCreateFolder } from '../../api/create-folder';
import { AddFromUrlButton, AddFromUrlDialog } from '../../../imports';
import { Lightbox, previewKind } from '../../../recipient';
import { ShareCollectionDialog } from '../sharing/share-dialog';
import { isComplete, isImage, itemsIn, folderKey, type BrowserItem } from '../../utils/browser-items';
import type { ListedCollectionFile } from '../../../../../contract/collections';
import type { CollectionBrowserSearch } from '../../utils/browser-search';
import { ancestryOf } from '../../utils/folder-tree';
import { useAddCollectionImport } from '../../api/add-collection-files';
import { Breadcrumbs, CollectionsCrumb, collectionFolderLink } from './breadcrumbs';
import { BrowserToolbar, type SelectionActions } from './browser-toolbar';
import { CollectionImports } from './collection-imports';
import { CollectionUploads } from './collection-uploads';
import { icons } from './icons';
import { ItemListbox, ListColumns } from './item-listbox';
import { MoveDialog } from './move-dialog';
import { FileDropOverlay } from './file-drop-overlay';
import { NameDialog, RenameDialog } from './name-dialog';
import { startDownload } from '../../../../lib/start-download';
import { UploadButtons } from '../../../../components/uploader/upload-buttons';
import { useBrowserActions } from './use-browser-actions';
import { useBrowserState } from './use-browser-state';
import { usePageFileDrop } from './use-page-file-drop';

type OpenDialog =
  | { kind: 'new-folder' }
  | { kind: 'add-from-url' }
  | { kind: 'rename'; item: BrowserItem }
  | { kind: 'move'; items: BrowserItem[] }
  | { kind: 'delete'; items: BrowserItem[] }
  | { kind: 'trash' }
  | { kind: 'review'; item: BrowserItem }
  | null;

/** The part of a button's words only screen readers hear (the name of what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

type ReviewFilter = 'all' | 'approved' | 'changes_requested' | 'none';
const reviewMatches = (state: 'approved' | 'changes_requested' | null, shown: Exclude<ReviewFilter, 'all'>) => (shown === 'none' ? state === null : state === shown);

interface CollectionBrowserProps {
  collectionId: string;
  search: CollectionBrowserSearch;
  /** A change of folder is a step in history (Back goes up again); sorting and the view replace it. */
  onSearchChange: (change: Partial<CollectionBrowserSearch>, options?: { replace?: boolean }) => void;
}

/**
 * The owner's collection: where they are (breadcrumbs), what is there (folders first, then files,
 * in a list or a grid of previews), what they can do with what they selected, and uploading into
 * the folder they are viewing by dropping files anywhere on the page, or importing one from a URL.
 */
export function CollectionBrowser({ collectionId, search, onSearchChange }: CollectionBrowserProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const { data: collection } = useCollection(collectionId);
  const { data: folders } = useFolders(collectionId);
  const { data: files } = useCollectionFiles(collectionId);
  const folderId = search.folder ?? null;
  const ancestry = useMemo(() => ancestryOf(folders, folderId), [folders, folderId]);
  const folderGone = folderId !== null && ancestry.length === 0;
  const here = ancestry.at(-1)?.name ?? collection.title;
  // Files by their review (the folders stay, counting what is under them).
  const [shown, setShown] = useState<ReviewFilter>('all');
  const items = useMemo(() => {
    const all = itemsIn(folders, files, folderId, search.sort, search.order);
    return shown === 'all' ? all : all.filter((item) => item.kind === 'folder' || reviewMatches(item.file.review?.state ?? null, shown));
  }, [folders, files, folderId, search.sort, search.order, shown]);
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const actions = useBrowserActions({ collectionId, folders, announce });
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [shareOpen, setShareOpen] = useState(false);
  const createFolder = useCreateFolder(collectionId);
  const addImport = useAddCollectionImport(collectionId);

  const nameOf = useCallback(
    (id: string | null) => (id === null ? collection.title : (folders.find((f) => f.id === id)?.name ?? '')),
    [collection.title, folders],
  );
  const folderLink = useMemo(() => collectionFolderLink(collectionId), [collectionId]);
  const moveItems = useCallback((moving: BrowserItem[], to: string | null) => actions.move(moving, to, nameOf(to)), [actions, nameOf]);

  const { selection, setSelection, selected, drag } = useBrowserState({ items, folders, folderId, onDropInto: moveItems });

  const uploads = useRef<FileUploaderHandle>(null);
  const addToUploads = useCallback((picked: File[]) => uploads.current?.addFiles(picked), []);
  const draggingFiles = usePageFileDrop(addToUploads);

  const [download, setDownload] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  /** A signed link to one file: to download it, or to play or show it in the lightbox. */
  const fileLink = useCallback(
    async (file: ListedCollectionFile) => {
      const links = await queryClient.fetchQuery(collectionDownloadLinksQueryOptions(collectionId, file.folderId));
      const url = links.files.find((f) => f.fileId === file.id)?.url;
      if (!url && file.unsent)
        throw new Error(
          intl.formatMessage({
            id: 'collections.browser.notSentYet',
            defaultMessage: 'Its uploader has not sent this file yet: publish their submission on the request’s page to download it.',
          }),
        );
      if (!url)
        throw new Error(intl.formatMessage({ id: 'collections.browser.notUploadedYet', defaultMessage: 'This file cannot be downloaded yet: its upload has not finished.' }));
      return url;
    },
    [queryClient, collectionId, intl],
  );

  /** Hands a link to the browser's download manager, saying what went wrong beside the toolbar. */
  async function downloadWith(link: () => Promise<string>) {
    setDownload({ pending: true, error: null });
    try {
      startDownload(await link());
      setDownload({ pending: false, error: null });
    } catch (error) {
      setDownload({ pending: false, error });
    }
  }

  const downloadItem = (target: BrowserItem | null) =>
    downloadWith(async () =>
      target?.kind === 'file'
        ? fileLink(target.file)
        : (await queryClient.fetchQuery(collectionDownloadLinksQueryOptions(collectionId, target === null ? folderId : target.id))).zip.url,
    );

  // The lightbox of the recipient's page, over this folder's files that have a preview: an image's, a player, a PDF, a text.
  const previewable = useMemo(
    () =>
      items
        .flatMap((item) => (item.kind === 'file' && isComplete(item.file) ? [{ ...item.file, thumbnailUrl: item.file.thumbnailUrl ?? null }] : []))
        .filter((f) => previewKind(f, true) !== null),
    [items],
  );
  const [previewing, setPreviewing] = useState<string | null>(null);
  const previewIndex = previewing === null ? -1 : previewable.findIndex((f) => f.id === previewing);

  const only = selected.length === 1 ? selected[0]! : null;
  const toolbarActions: SelectionActions = {
    onNewFolder: () => setDialog({ kind: 'new-folder' }),
    onRename: only ? () => setDialog({ kind: 'rename', item: only }) : undefined,
    onMove: selected.length > 0 ? () => setDialog({ kind: 'move', items: selected }) : undefined,
    onDelete: selected.length > 0 ? () => setDialog({ kind: 'delete', items: selected }) : undefined,
    hasReview: true,
    onReview: only?.kind === 'file' && isComplete(only.file) ? () => setDialog({ kind: 'review', item: only }) : undefined,
    onSetCover:
      only?.kind === 'file' && isImage(only.file) && isComplete(only.file) && collection.coverFileId !== only.id ? () => actions.setCover(only) : undefined,
    onDownload: selected.length > 1 || (only?.kind === 'file' && !isComplete(only.file)) ? undefined : () => void downloadItem(only),
    downloadLabel:
      only || selected.length > 1
        ? intl.formatMessage({ id: 'collections.browser.download', defaultMessage: 'Download' })
        : folderId === null
          ? intl.formatMessage({ id: 'collections.browser.downloadAll', defaultMessage: 'Download all' })
          : intl.formatMessage({ id: 'collections.browser.downloadFolder', defaultMessage: 'Download this folder' }),
    downloading: download.pending,
  };

  // Enter or a double click: a folder opens, a file with a preview shows in the lightbox.
  const openItem = (item: BrowserItem) => {
    if (item.kind === 'folder') onSearchChange({ folder: item.id });
    else if (previewable.some((f) => f.id === item.id)) setPreviewing(item.id);
  };

  const completeFiles = files.filter(isComplete);
  return (
    <>
      <Breadcrumbs parent={<CollectionsCrumb />} title={collection.title} ancestry={ancestry} drag={drag} FolderLink={folderLink} />
      <PageHeader
        title={collection.title}
        description={intl.formatMessage(
          { id: 'collections.browser.summary', defaultMessage: '{count, plural, one {# file} other {# files}} · {size}' },
          { count: completeFiles.length, size: formatBytes(completeFiles.reduce((sum, f) => sum + f.sizeBytes, 0)) },
        )}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setShareOpen(true)}>
              {icons.share}
              {intl.formatMessage({ id: 'collections.browser.share', defaultMessage: 'Share' })}
            </Button>
            <UploadButtons onFiles={addToUploads} />
            <AddFromUrlButton onClick={() => setDialog({ kind: 'add-from-url' })} />
            <Button variant="ghost" onClick={() => setDialog({ kind: 'trash' })}>
              {icons.delete}
              {intl.formatMessage({ id: 'collections.browser.trash', defaultMessage: 'Trash' })}
            </Button>
          </div>
        }
      />
      <ShareCollectionDialog collection={collection} open={shareOpen} onClose={() => setShareOpen(false)} />

      <CollectionUploads ref={uploads} collectionId={collectionId} folderId={folderId} folders={folders} files={files} />
      <CollectionImports collectionId={collectionId} collectionTitle={collection.title} folders={folders} files={files} />

      {folderGone ? (
        <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700">
          <h2 className="text-base font-semibold">
            {intl.formatMessage({ id: 'collections.browser.folderGone', defaultMessage: 'This folder is not here any more' })}
          </h2>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'collections.browser.folderGoneWhy', defaultMessage: 'It may have been deleted, or moved with the folder it was in.' })}
          </p>
          <Link
            from="/collections/$collectionId"
            to="/collections/$collectionId"
            params={{ collectionId }}
            search={(prev) => ({ ...prev, folder: undefined })}
            className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
          >
            {intl.formatMessage(
              { id: 'collections.browser.goToTop', defaultMessage: 'Go to the top of “{title}”' },
              { title: <bdi key="title">{collection.title}</bdi> },
            )}
          </Link>
        </div>
      ) : (
        <section
          aria-label={intl.formatMessage({ id: 'collections.browser.filesAndFolders', defaultMessage: 'Files and folders' })}
          className="rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
        >
          <BrowserToolbar
            selectedCount={selected.length}
            actions={toolbarActions}
            sort={search.sort}
            order={search.order}
            view={search.view}
            onSortChange={(sort) => onSearchChange({ sort }, { replace: true })}
            onOrderChange={(order) => onSearchChange({ order }, { replace: true })}
            onViewChange={(view) => onSearchChange({ view }, { replace: true })}
          />
          <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
            <label htmlFor="review-filter" className="text-zinc-700 dark:text-zinc-300">
              {intl.formatMessage({ id: 'collections.browser.show', defaultMessage: 'Show' })}
            </label>
            <select id="review-filter" value={shown} onChange={(event) => setShown(event.target.value as ReviewFilter)} className={`${inputClass} w-auto py-1`}>
              <option value="all">{intl.formatMessage({ id: 'collections.browser.filterAll', defaultMessage: 'All files' })}</option>
              <option value="approved">{intl.formatMessage({ id: 'collections.browser.filterApproved', defaultMessage: 'Approved' })}</option>
              <option value="changes_requested">
                {intl.formatMessage({ id: 'collections.browser.filterChangesRequested', defaultMessage: 'Changes requested' })}
              </option>
              <option value="none">{intl.formatMessage({ id: 'collections.browser.filterNotReviewed', defaultMessage: 'Not reviewed' })}</option>
            </select>
          </div>
          {download.error ? <FormError error={download.error} className="m-2" /> : null}
          {search.view === 'list' && items.length > 0 ? <ListColumns /> : null}
          <ItemListbox
            items={items}
            view={search.view}
            label={intl.formatMessage({ id: 'collections.browser.contentsOf', defaultMessage: 'Contents of {name}' }, { name: folderId === null ? collection.title : here })}
            emptyText={intl.formatMessage({
              id: 'collections.browser.empty',
              defaultMessage: 'Nothing here yet. Drop files or whole folders anywhere on this page, or use Upload files or Add from URL.',
            })}
            selection={selection}
            onSelectionChange={setSelection}
            onOpen={openItem}
            onDeleteRequest={() => toolbarActions.onDelete?.()}
            onRenameRequest={() => toolbarActions.onRename?.()}
            errors={actions.errors}
            coverFileId={collection.coverFileId}
            drag={drag}
          />
        </section>
      )}

      <p role="status" className="sr-only">
        {announcement}
      </p>

      {draggingFiles ? <FileDropOverlay title={intl.formatMessage({ id: 'collections.browser.dropToUpload', defaultMessage: 'Drop to upload' })} place={here} /> : null}

      {dialog?.kind === 'new-folder' ? (
        <NameDialog
          title={intl.formatMessage({ id: 'collections.newFolder.title', defaultMessage: 'New folder in “{place}”' }, { place: here })}
          label={intl.formatMessage({ id: 'collections.newFolder.label', defaultMessage: 'Folder name' })}
          submitLabel={intl.formatMessage({ id: 'collections.newFolder.submit', defaultMessage: 'Create folder' })}
          pendingLabel={intl.formatMessage({ id: 'collections.newFolder.pending', defaultMessage: 'Creating…' })}
          pending={createFolder.isPending}
          error={createFolder.error}
          onClose={() => {
            createFolder.reset();
            setDialog(null);
          }}
          onSubmit={(name) =>
            createFolder.mutate(
              { name, parentId: folderId },
              {
                onSuccess: (folder) => {
                  setDialog(null);
                  createFolder.reset();
                  setSelection({ selected: new Set([folderKey(folder.id)]), anchor: folderKey(folder.id), active: folderKey(folder.id) });
                  announce(intl.formatMessage({ id: 'collections.newFolder.created', defaultMessage: 'Folder “{name}” created.' }, { name: folder.name }));
                },
              },
            )
          }
        />
      ) : null}
      {dialog?.kind === 'add-from-url' ? (
        <AddFromUrlDialog
          description={intl.formatMessage(
            {
              id: 'collections.addFromUrl.description',
              defaultMessage: 'Into “{place}”. The service fetches the file in the background; it is listed as importing until it is in.',
            },
            { place: here },
          )}
          onAdd={async (request) => {
            const [entry] = await addImport.mutateAsync({ request, folderId });
            announce(
              entry
                ? intl.formatMessage({ id: 'collections.addFromUrl.importing', defaultMessage: '{name} is being imported into “{place}”.' }, { name: entry.name, place: here })
                : intl.formatMessage({ id: 'collections.addFromUrl.importingUnnamed', defaultMessage: 'The file is being imported into “{place}”.' }, { place: here }),
            );
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'rename' ? <RenameDialog item={dialog.item} onRename={actions.rename} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'move' ? (
        <MoveDialog
          rootTitle={collection.title}
          folders={folders}
          items={dialog.items}
          fromFolderId={folderId}
          onClose={() => setDialog(null)}
          onMove={(to) => {
            setDialog(null);
            moveItems(dialog.items, to);
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={
            dialog.items.length === 1
              ? intl.formatMessage({ id: 'collections.delete.titleOne', defaultMessage: 'Delete “{name}”?' }, { name: dialog.items[0]!.name })
              : intl.formatMessage({ id: 'collections.delete.titleMany', defaultMessage: '{count, plural, one {Delete # item?} other {Delete # items?}}' }, { count: dialog.items.length })
          }
          confirmLabel={intl.formatMessage({ id: 'collections.delete.confirm', defaultMessage: 'Delete' })}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            actions.remove(dialog.items);
          }}
        >
          {dialog.items.some((item) => item.kind === 'folder')
            ? intl.formatMessage({
                id: 'collections.delete.folders',
                defaultMessage:
                  'Folders go to the trash with everything inside them. Guests and visitors can no longer see or download any of it. You can restore it from the trash for 30 days.',
              })
            : intl.formatMessage({
                id: 'collections.delete.files',
                defaultMessage: 'It goes to the trash: guests and visitors can no longer see or download it. You can restore it from the trash for 30 days.',
              })}
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'review' && dialog.item.kind === 'file' ? (
        <OwnerReview collectionId={collectionId} file={files.find((f) => f.id === dialog.item.id) ?? dialog.item.file} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'trash' ? <TrashDialog collectionId={collectionId} onClose={() => setDialog(null)} onRestored={announce} /> : null}
      {previewIndex >= 0 ? (
        <Lightbox
          files={previewable}
          index={previewIndex}
          onIndex={(index) => setPreviewing(previewable[index]?.id ?? null)}
          onClose={() => setPreviewing(null)}
          sourceOf={fileLink}
          action={(file) => (
            <Button onClick={() => void downloadWith(() => fileLink(file))} disabled={download.pending}>
              {intl.formatMessage({ id: 'collections.preview.download', defaultMessage: 'Download<hidden> {name}</hidden>' }, { name: file.name, hidden })}
            </Button>
          )}
        />
      ) : null}
    </>
  );
}
