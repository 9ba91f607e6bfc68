// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { finalizeTransfer } from './api/finalize-transfer';
export { transferQueryOptions } from './api/get-transfer';
export { transferKeys } from './api/query-keys';
export { removeFileFromDraft } from './api/remove-draft-file';
export { MadeBy } from './components/made-by';
export { SentNotice, type EncryptedLink } from './components/sent-notice';
