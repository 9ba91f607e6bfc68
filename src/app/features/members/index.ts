// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { membersQueryOptions } from './api/members';
