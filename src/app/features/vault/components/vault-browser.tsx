import { Link } from '@tanstack/react-router';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MasterKey } from '../../../../crypto';
import type { Vault } from '../../../../contract/vault';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { PageHeader } from '../../../components/page-header';
import { inputClass } from '../../../components/text-field';
import { UploadButtons } from '../../../components/uploader/upload-buttons';
import type { FileUploaderHandle } from '../../../components/uploader/file-uploader';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import {
  Breadcrumbs,
  type FolderLinkComponent,
  BrowserToolbar,
  type SelectionActions,
  ItemListbox,
  ListColumns,
  MoveDialog,
  FileDropOverlay,
  NameDialog,
  RenameDialog,
  useBrowserState,
  usePageFileDrop,
  folderKey,
  folderTotals,
  itemsIn,
  type BrowserItem,
  type CollectionBrowserSearch,
  ancestryOf,
  noSelection,
} from '../../collections';
import { MEMORY_SAVE_LIMIT, SaveCancelled, TooBigForMemory, chooseSaveTarget, saveWay } from '../../recipient';
import type { OpenedVault, OpenedVaultFile } from '../utils/open-contents';
import { fileSave, folderSave, type VaultSave } from '../utils/vault-downloads';
import { noteVaultActivity } from '../vault-lock';
import { SendFromVaultDialog } from './send-from-vault-dialog';
import { useVaultActions } from './use-vault-actions';
import { VaultUploadsPanel } from './vault-uploads-panel';
import { vaultMessages } from './vault-messages';

type OpenDialog =
  | { kind: 'new-folder' }
  | { kind: 'rename'; item: BrowserItem }
  | { kind: 'move'; items: BrowserItem[] }
  | { kind: 'delete'; items: BrowserItem[] }
  | { kind: 'send'; files: OpenedVaultFile[] }
  | null;

const VaultFolderLink: FolderLinkComponent = ({ folderId, ...props }) => (
  <Link from="/vault" to="/vault" search={(prev) => ({ ...prev, folder: folderId ?? undefined })} activeOptions={{ exact: true }} {...props} />
);

/** Every folder and file whose decrypted name holds the query, wherever it is: the vault is searched here, never on the server. */
function searchItems(vault: OpenedVault, query: string, search: CollectionBrowserSearch): BrowserItem[] {
  const needle = query.toLocaleLowerCase();
  const totals = folderTotals(vault.folders, vault.files);
  const matches = (name: string) => name.toLocaleLowerCase().includes(needle);
  // Sorted as the folder view sorts, as if every match were in one folder.
  const folders = vault.folders.filter((f) => matches(f.name)).map((f) => ({ ...f, parentId: null }));
  const files = vault.files.filter((f) => matches(f.name)).map((f) => ({ ...f, folderId: null }));
  return itemsIn(folders, files, null, search.sort, search.order).map((item) => {
    if (item.kind === 'folder') return { ...item, ...totals.get(item.id)!, folder: vault.folders.find((f) => f.id === item.id)! };
    return { ...item, file: vault.files.find((f) => f.id === item.id)! };
  });
}

interface VaultBrowserProps {
  userId: string;
  workspaceId: string;
  master: MasterKey;
  vault: OpenedVault;
  record: Vault;
  search: CollectionBrowserSearch;
  onSearchChange: (change: Partial<CollectionBrowserSearch>, options?: { replace?: boolean }) => void;
  /** The header's own controls (lock, passphrase, idle time). */
  headerActions: ReactNode;
}

/**
 * The unlocked vault, browsed like a collection (the same listbox, toolbar, breadcrumbs, dialogs and drag and drop),
 * with what only the vault does: names decrypted and searched here, files encrypted as they upload and decrypted as
 * they download, straight to disk.
 */
export function VaultBrowser({ userId, workspaceId, master, vault, record, search, onSearchChange, headerActions }: VaultBrowserProps) {
  const intl = useIntl();
  const vaultTitle = intl.formatMessage(vaultMessages.title);
  const folderId = search.folder ?? null;
  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const ancestry = useMemo(() => ancestryOf(vault.folders, folderId), [vault.folders, folderId]);
  const folderGone = folderId !== null && ancestry.length === 0;
  const here = ancestry.at(-1)?.name ?? vaultTitle;
  const items = useMemo(
    () => (searching ? searchItems(vault, query.trim(), search) : itemsIn(vault.folders, vault.files, folderId, search.sort, search.order)),
    [vault, folderId, search, searching, query],
  );
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const actions = useVaultActions({ master, vault, announce });
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [folderDialog, setFolderDialog] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });

  const nameOf = useCallback(
    (id: string | null) => (id === null ? vaultTitle : (vault.folders.find((f) => f.id === id)?.name ?? '')),
    [vault.folders, vaultTitle],
  );
  const moveItems = useCallback((moving: BrowserItem[], to: string | null) => void actions.move(moving, to, nameOf(to)), [actions, nameOf]);

  const { selection, setSelection, selected, drag } = useBrowserState({ items, folders: vault.folders, folderId, onDropInto: moveItems });

  const uploads = useRef<FileUploaderHandle>(null);
  const addToUploads = useCallback((picked: File[]) => uploads.current?.addFiles(picked), []);
  const draggingFiles = usePageFileDrop(addToUploads);

  const [saving, setSaving] = useState<{ done: number; total: number } | null>(null);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const busy = useRef(false);
  async function download(target: BrowserItem | null) {
    if (busy.current) return;
    busy.current = true;
    setDownloadError(null);
    try {
      let save: VaultSave;
      if (target?.kind === 'file') {
        const file = vault.byId.get(target.id);
        if (!file) throw new Error(intl.formatMessage({ id: 'vault.browser.fileGone', defaultMessage: 'This file is not in your vault any more.' }));
        save = fileSave(master, file);
      } else {
        const scope = target === null ? folderId : target.id;
        save = folderSave(master, vault, scope, nameOf(scope));
      }
      // First, while the click's user activation lasts: the save dialog needs it.
      const destination = await chooseSaveTarget(save.request);
      let done = 0;
      setSaving({ done, total: save.total });
      await destination.write(
        save.open((n) => {
          done += n;
          noteVaultActivity();
          setSaving({ done, total: save.total });
        }),
      );
      announce(intl.formatMessage({ id: 'vault.browser.saved', defaultMessage: '{name} was decrypted and saved.' }, { name: save.request.filename }));
    } catch (error) {
      if (error instanceof TooBigForMemory) {
        setDownloadError(
          new Error(
            intl.formatMessage(
              {
                id: 'vault.browser.tooBigForBrowser',
                defaultMessage: 'This browser can only save files up to {size} from the vault. Use Chrome, Edge, Firefox or Safari.',
              },
              { size: formatBytes(MEMORY_SAVE_LIMIT) },
            ),
          ),
        );
      } else if (!(error instanceof SaveCancelled)) setDownloadError(error);
    } finally {
      busy.current = false;
      setSaving(null);
    }
  }

  const only = selected.length === 1 ? selected[0]! : null;
  // Files only, each fully uploaded and readable: what can be sent on as a transfer.
  const sendable = selected.every((item) => item.kind === 'file' && item.file.state === 'complete')
    ? selected.flatMap((item) => vault.byId.get(item.id) ?? [])
    : [];
  const toolbarActions: SelectionActions = {
    onNewFolder: () => setDialog({ kind: 'new-folder' }),
    hasCovers: false,
    canSend: true,
    onSend: sendable.length > 0 && sendable.length === selected.length ? () => setDialog({ kind: 'send', files: sendable }) : undefined,
    onRename: only ? () => setDialog({ kind: 'rename', item: only }) : undefined,
    onMove: selected.length > 0 ? () => setDialog({ kind: 'move', items: selected }) : undefined,
    onDelete: selected.length > 0 ? () => setDialog({ kind: 'delete', items: selected }) : undefined,
    onDownload: selected.length > 1 || (only?.kind === 'file' && only.file.state !== 'complete') ? undefined : () => void download(only),
    downloadLabel:
      only || selected.length > 1
        ? intl.formatMessage({ id: 'vault.browser.download', defaultMessage: 'Download' })
        : folderId === null
          ? intl.formatMessage({ id: 'vault.browser.downloadAll', defaultMessage: 'Download all' })
          : intl.formatMessage({ id: 'vault.browser.downloadFolder', defaultMessage: 'Download this folder' }),
    downloading: saving !== null,
  };

  const openItem = (item: BrowserItem) => {
    if (item.kind === 'folder') {
      setQuery('');
      onSearchChange({ folder: item.id });
    }
  };

  const complete = vault.files.filter((f) => f.state === 'complete');
  const { usedBytes, limitBytes } = record.usage;
  return (
    <>
      <Breadcrumbs title={vaultTitle} ancestry={ancestry} drag={drag} FolderLink={VaultFolderLink} />
      <PageHeader
        title={folderId === null ? vaultTitle : here}
        description={intl.formatMessage(
          {
            id: 'vault.browser.summary',
            defaultMessage: '{count, plural, one {# file} other {# files}} · {used} of {limit} used · encrypted in this browser',
          },
          { count: complete.length, used: formatBytes(usedBytes), limit: formatBytes(limitBytes) },
        )}
        actions={
          <div className="flex flex-wrap gap-2">
            <UploadButtons onFiles={addToUploads} />
            {headerActions}
          </div>
        }
      />

      <VaultUploadsPanel ref={uploads} userId={userId} master={master} vault={vault} folderId={folderId} />

      <div className="mb-3 flex flex-wrap items-center gap-3">
        <label className="flex min-w-0 flex-1 items-center gap-2 sm:max-w-sm">
          <span className="sr-only">{intl.formatMessage({ id: 'vault.browser.searchLabel', defaultMessage: 'Search your vault by name' })}</span>
          <input
            type="search"
            className={inputClass}
            placeholder={intl.formatMessage({ id: 'vault.browser.searchPlaceholder', defaultMessage: 'Search names in your vault' })}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
          />
        </label>
        {saving ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status">
            {intl.formatMessage(
              { id: 'vault.browser.decrypting', defaultMessage: 'Decrypting… {progress, number, ::percent}' },
              // Whole percents, rounded down: 100 % only once all is saved.
              { progress: saving.total ? Math.floor((saving.done / saving.total) * 100) / 100 : 1 },
            )}
          </p>
        ) : null}
      </div>

      {folderGone && !searching ? (
        <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700">
          <h2 className="text-base font-semibold">{intl.formatMessage({ id: 'vault.browser.folderGone', defaultMessage: 'This folder is not here any more' })}</h2>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'vault.browser.folderGoneText', defaultMessage: 'It may have been deleted, or moved with the folder it was in.' })}
          </p>
          <Button variant="secondary" className="mt-4" onClick={() => onSearchChange({ folder: undefined })}>
            {intl.formatMessage({ id: 'vault.browser.toTop', defaultMessage: 'Go to the top of your vault' })}
          </Button>
        </div>
      ) : (
        <section
          aria-label={intl.formatMessage({ id: 'vault.browser.contentsRegion', defaultMessage: 'Files and folders' })}
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
          {downloadError ? <FormError error={downloadError} className="m-2" /> : null}
          {search.view === 'list' && items.length > 0 ? <ListColumns /> : null}
          <ItemListbox
            items={items}
            view={search.view}
            label={
              searching
                ? intl.formatMessage({ id: 'vault.browser.searchResults', defaultMessage: 'Search results for “{query}”' }, { query: query.trim() })
                : intl.formatMessage({ id: 'vault.browser.contentsOf', defaultMessage: 'Contents of {folder}' }, { folder: here })
            }
            emptyText={
              searching
                ? intl.formatMessage({ id: 'vault.browser.noMatches', defaultMessage: 'Nothing in your vault has a name like that.' })
                : intl.formatMessage({
                    id: 'vault.browser.empty',
                    defaultMessage:
                      'Nothing here yet. Drop files or whole folders anywhere on this page, or use Upload files. They are encrypted before they leave this browser.',
                  })
            }
            selection={selection}
            onSelectionChange={setSelection}
            onOpen={openItem}
            onDeleteRequest={() => toolbarActions.onDelete?.()}
            onRenameRequest={() => toolbarActions.onRename?.()}
            errors={actions.errors}
            coverFileId={null}
            drag={drag}
          />
        </section>
      )}
      {saveWay() === 'memory' ? (
        <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            {
              id: 'vault.browser.memoryOnly',
              defaultMessage: 'This browser can save decrypted files only through its memory: files over {size} cannot be downloaded here.',
            },
            { size: formatBytes(MEMORY_SAVE_LIMIT) },
          )}
        </p>
      ) : null}

      <p role="status" className="sr-only">
        {announcement}
      </p>

      {draggingFiles ? (
        <FileDropOverlay title={intl.formatMessage({ id: 'vault.browser.dropTitle', defaultMessage: 'Drop to encrypt and upload' })} place={here} />
      ) : null}

      {dialog?.kind === 'new-folder' ? (
        <NameDialog
          title={intl.formatMessage({ id: 'vault.newFolder.title', defaultMessage: 'New folder in “{folder}”' }, { folder: here })}
          label={intl.formatMessage({ id: 'vault.newFolder.nameLabel', defaultMessage: 'Folder name' })}
          submitLabel={intl.formatMessage({ id: 'vault.newFolder.create', defaultMessage: 'Create folder' })}
          pendingLabel={intl.formatMessage({ id: 'vault.newFolder.creating', defaultMessage: 'Creating…' })}
          pending={folderDialog.pending}
          error={folderDialog.error}
          onClose={() => {
            setFolderDialog({ pending: false, error: null });
            setDialog(null);
          }}
          onSubmit={(name) => {
            setFolderDialog({ pending: true, error: null });
            actions.createFolder(name, folderId).then(
              (folder) => {
                setFolderDialog({ pending: false, error: null });
                setDialog(null);
                setSelection({ selected: new Set([folderKey(folder.id)]), anchor: folderKey(folder.id), active: folderKey(folder.id) });
                announce(intl.formatMessage({ id: 'vault.newFolder.created', defaultMessage: 'Folder “{name}” created.' }, { name }));
              },
              (error: unknown) => setFolderDialog({ pending: false, error }),
            );
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? <RenameDialog item={dialog.item} onRename={(item, name) => void actions.rename(item, name)} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'move' ? (
        <MoveDialog
          rootTitle={vaultTitle}
          folders={vault.folders}
          items={dialog.items}
          fromFolderId={searching ? null : folderId}
          onClose={() => setDialog(null)}
          onMove={(to) => {
            setDialog(null);
            moveItems(dialog.items, to);
          }}
        />
      ) : null}
      {dialog?.kind === 'send' ? <SendFromVaultDialog workspaceId={workspaceId} master={master} files={dialog.files} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={intl.formatMessage(
            { id: 'vault.delete.title', defaultMessage: '{count, plural, =1 {Delete “{name}”?} other {Delete # items?}}' },
            { count: dialog.items.length, name: dialog.items[0]!.name },
          )}
          confirmLabel={intl.formatMessage({ id: 'vault.delete.confirm', defaultMessage: 'Delete' })}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            const items = dialog.items;
            setDialog(null);
            setSelection(noSelection);
            actions.remove(items).catch((error: unknown) => setDownloadError(error));
          }}
        >
          {dialog.items.some((item) => item.kind === 'folder')
            ? intl.formatMessage({ id: 'vault.delete.folders', defaultMessage: 'Folders are deleted with everything inside them. This cannot be undone.' })
            : intl.formatMessage({ id: 'vault.delete.files', defaultMessage: 'The file is deleted from your vault. This cannot be undone.' })}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
