// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { DraftSession } from './draft-session';
export { ENCRYPTED_REQUEST_BYTES, SEALED_FILE_NAME, encryptingTusOptions, plainSourceOf, type ReadableFile } from './encryption/encrypted-uploads';
export { makeThumbnail } from './encryption/thumbnail';
