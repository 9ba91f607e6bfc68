// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { publicRequest } from './api/public-api';
export { FileIcon } from './components/file-icon';
export { LinkNotFoundPage, LoadFailedPage, StatusPage, SuspendedLinkPage } from './components/status-pages';
export { decryptedFile, decryptedZip, openedWhenRead, zipSize, type ZipEntry } from './e2ee/decrypted-downloads';
export { MEMORY_SAVE_LIMIT, SaveCancelled, TooBigForMemory, chooseSaveTarget, saveWay, type SaveRequest } from './e2ee/save-file';
export { fileTypeLabel, fileKind, previewKind } from './utils/file-kind';
export { Lightbox } from './components/previews';
export { ThumbnailImage } from './components/thumbnail-image';
