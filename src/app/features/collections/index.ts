// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { collectionsQueryOptions } from './api/get-collections';
export { foldersQueryOptions } from './api/get-folders';
export { Breadcrumbs, type FolderLinkComponent } from './components/browser/breadcrumbs';
export { BrowserToolbar, type SelectionActions } from './components/browser/browser-toolbar';
export { FileDropOverlay } from './components/browser/file-drop-overlay';
export { ItemListbox, ListColumns } from './components/browser/item-listbox';
export { MoveDialog } from './components/browser/move-dialog';
export { NameDialog, RenameDialog } from './components/browser/name-dialog';
export { useBrowserState } from './components/browser/use-browser-state';
export { usePageFileDrop } from './components/browser/use-page-file-drop';
export { UpgradeNotice, isUpgradeRequired, type PaidFeature } from './components/upgrade-notice';
export { type BrowserItem, folderKey, folderTotals, itemsIn } from './utils/browser-items';
export type { CollectionBrowserSearch } from './utils/browser-search';
export { canMoveFolderInto, ancestryOf, byPath } from './utils/folder-tree';
export { noSelection } from './utils/selection';
