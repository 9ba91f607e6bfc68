// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { useImportStatuses, type ImportStatusResult, type ImportEntry, type ImportToAdd } from './api/import-status';
export { AddFromUrlButton, AddFromUrlDialog } from './components/add-from-url-dialog';
export { ImportProgressBar, receivedText, ImportRow } from './components/import-progress';
